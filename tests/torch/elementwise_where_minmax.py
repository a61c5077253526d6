import torch
x = torch.tensor([-2.0, 0.5, 3.0, -0.1])
print(torch.where(x > 0, x, torch.zeros_like(x)))
print(torch.where(x > 0, 1.0, -1.0))
print(torch.maximum(x, torch.tensor(0.0)))
print(torch.minimum(x, torch.tensor([0.0, 0.0, 1.0, 1.0])))
print(torch.sign(x))
print(x.abs().max())
