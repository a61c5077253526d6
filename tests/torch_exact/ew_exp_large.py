import torch

x = torch.linspace(-6.0, 6.0, 100)
y = torch.exp(x)
print(y.tolist())
print(repr(y.sum().item()))
