import torch

x = torch.linspace(0.1, 1.7, 17)
print(x.tolist())
c = torch.cumsum(x, dim=0)
print(c.tolist())
torch.set_printoptions(precision=10)
print(c)
