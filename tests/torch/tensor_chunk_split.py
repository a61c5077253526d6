import torch
x = torch.arange(10)
print(x.chunk(3))
print(x.split(4))
print([c.shape for c in torch.zeros(6, 2).split(2, dim=0)])
print(x.repeat(2), torch.tensor([1, 2]).repeat(2, 2).shape)
print(x[:3].expand(2, 3))
