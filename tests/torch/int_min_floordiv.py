import torch
x = torch.tensor([-2**63, 7, -7])
print(x // -1)
print(x % -1)
print(x // torch.tensor([-1, -1, -1]))
print(x % torch.tensor([-1, -1, -1]))
