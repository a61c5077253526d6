import torch

x = torch.arange(9).reshape(3, 3)
print(torch.flip(x, dims=[0]))
print(x.flip(1))
print(torch.triu(x))
print(torch.tril(x, diagonal=-1))
print(torch.diag(x), torch.diag(torch.tensor([1, 2])))
print(torch.trace(x))
print(torch.rot90(x))
