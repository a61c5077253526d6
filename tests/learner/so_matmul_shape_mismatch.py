import torch

torch.manual_seed(1)
a = torch.randn(4, 3)
b = torch.randn(4, 3)
print(a.shape, b.shape)
c = a @ b
print(c)
