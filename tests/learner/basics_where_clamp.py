import torch

x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0])
print(torch.where(x > 0, x, torch.zeros_like(x)))
print(torch.where(x > 0, 1.0, -1.0))
print(x.clamp(-1, 1))
print(torch.clamp(x, min=0))
print(x.abs(), x.sign())
print(torch.relu(x))
