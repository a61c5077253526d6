import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0])
print(torch.cumsum(x, dim=0))
print(torch.cumprod(x, dim=0))
print(torch.cummax(torch.tensor([1, 3, 2, 5, 4]), dim=0))
print(torch.logcumsumexp(torch.zeros(3), dim=0))
print(torch.diff(x))
m = torch.arange(6).view(2, 3)
print(m.cumsum(dim=1))
