import torch

i = torch.arange(100000)
print(i.sum().item(), i.float().sum().item())
d = torch.arange(1000, dtype=torch.float64) * 0.1
print(repr(d.sum().item()), repr(d.mean().item()))
f = torch.arange(1000, dtype=torch.float32) * 0.1
print(repr(f.sum().item()), repr(f.double().sum().item()))
print(torch.tensor([0.1] * 10).sum().item())
