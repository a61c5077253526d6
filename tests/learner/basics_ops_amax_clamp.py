import torch

x = torch.tensor([[1.0, 5.0, -2.0], [4.0, -6.0, 3.0]])
print(x.amax(dim=1), x.amin(dim=0))
print(torch.amax(x, dim=(0, 1)))
print(x.clamp_min(0), x.clamp_max(2))
print(torch.clip(x, -1, 1))
print(x.abs().max(dim=1).values)
print(torch.aminmax(x))
