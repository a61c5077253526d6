import torch
x = torch.tensor([1., 2., 3., 4.])
print(x.prod(), x.cumsum(0))
print(x.std(), x.var())
print(x.norm())
print(torch.tensor([[1, 2], [3, 4]]).prod(dim=1))
print(x.median(), x.min(), x.max())
print(torch.tensor([[1., 2.], [3., 4.]]).mean(dim=1, keepdim=True))
print(x.cumprod(0))
