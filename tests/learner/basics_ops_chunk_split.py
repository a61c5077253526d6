import torch

x = torch.arange(10)
print(torch.chunk(x, 3))
print(torch.split(x, 4))
print(torch.split(x, [2, 3, 5]))
print(x.unbind(0)[:3])
m = torch.arange(12).view(3, 4)
a, b = m.split(2, dim=1)
print(a, b, sep="\n")
