import torch
a = torch.randn(10)
b = torch.randn(5)
print(a.shape, b.shape)
c = a + b
