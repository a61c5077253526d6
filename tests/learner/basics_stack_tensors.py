import torch

a = torch.tensor([1, 2, 3])
b = torch.tensor([4, 5, 6])
s0 = torch.stack([a, b])
s1 = torch.stack([a, b], dim=1)
print(s0)
print(s1)
print(s0.shape, s1.shape)
print(torch.cat([a, b]))
print(torch.vstack([a, b]))
