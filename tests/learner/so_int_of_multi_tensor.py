import torch

t = torch.tensor([3])
print(int(t), float(t))
n = torch.tensor([1, 2])
print(int(n))
