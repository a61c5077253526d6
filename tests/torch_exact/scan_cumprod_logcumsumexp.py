import torch

x = 1.0 + torch.arange(20, dtype=torch.float32) * 0.05
print(torch.cumprod(x, 0).tolist())
y = torch.linspace(-2, 3, 15)
print(torch.logcumsumexp(y, 0).tolist())
print(torch.cummax(y.sin(), 0).values.tolist())
