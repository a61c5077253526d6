import torch
x = torch.randn(5)
print(x[4].shape)
x[7]
