import torch

x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
print(x.sum(), x.sum(dim=0), x.sum(dim=1))
print(x.mean(dim=0))
values, indices = x.max(dim=1)
print(values, indices)
print(x.max())
print(x.min(dim=0))
print(x.argmax(), x.argmax(dim=1))
print(x.prod(dim=1))
print(x.std(), x.var(dim=1))
