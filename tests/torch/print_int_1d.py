import torch
print(torch.tensor([1, 2]))
print(torch.tensor([-1, 10, 100, -1000]))
print(torch.tensor([0]))
print(torch.arange(10))
print(torch.tensor([123456789, 1]))
