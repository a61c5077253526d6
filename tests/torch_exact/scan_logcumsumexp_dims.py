import torch

x = torch.linspace(-3.0, 4.0, 24).reshape(4, 6) * 1.7
print(torch.logcumsumexp(x, 0).tolist())
print(torch.logcumsumexp(x, 1).tolist())
print(x.logcumsumexp(-1).tolist())
y = torch.tensor([float('-inf'), -1.0, float('-inf'), 2.0, float('inf'), 0.5])
print(torch.logcumsumexp(y, 0).tolist())
print(torch.logcumsumexp(torch.tensor(1.5), 0).tolist())
print(torch.logcumsumexp(x.double(), 1).tolist())
