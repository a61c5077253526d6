import torch
a = torch.randn(64, 100)
b = torch.randn(784, 256)
print(a.shape, b.shape)
a @ b
