import torch

torch.manual_seed(0)
a = torch.ones(4, 3, 2)
print(a.shape)
b = a * torch.rand(4, 3)    # dimensions must match last-to-first
print(b)
