import torch

torch.manual_seed(0)
a = torch.rand(3, 226, 226)
b = a.unsqueeze(0)
print(a.shape)
print(b.shape)

c = torch.rand(1, 1, 1, 1, 1)
print(c.shape)
d = torch.rand(1, 20)
print(d.shape)
print(d.squeeze(0).shape)
e = torch.ones(4, 3, 2)
f = torch.rand(3) * torch.tensor([10.0, 1.0, 0.1])
f = f.unsqueeze(1)
print(f.shape)
print((e * f).shape)
