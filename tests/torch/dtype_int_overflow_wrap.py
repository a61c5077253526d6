import torch
x = torch.tensor([250], dtype=torch.uint8)
print(x + 10)
print(torch.tensor([127], dtype=torch.int8) + 1)
print(torch.tensor([2 ** 31 - 1], dtype=torch.int32) + 1)
print(torch.tensor([-1]).to(torch.uint8))
