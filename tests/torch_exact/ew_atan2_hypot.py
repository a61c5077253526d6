import torch

y = torch.tensor([1.0, -1.0, 0.5, 3.0, -0.2])
x = torch.tensor([1.0, 2.0, -0.5, 0.1, -4.0])
print(torch.atan2(y, x).tolist())
print(torch.hypot(y, x).tolist())
print(torch.sqrt(x * x + y * y).tolist())
print(torch.sinh(x).tolist(), torch.cosh(x).tolist())
