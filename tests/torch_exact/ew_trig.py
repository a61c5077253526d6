import torch

x = torch.tensor([-3.0, -1.2, -0.4, 0.0, 0.3, 0.9, 1.5, 2.2, 3.1, 6.5])
print(torch.sin(x).tolist())
print(torch.cos(x).tolist())
print(torch.tan(x).tolist())
print(torch.atan(x).tolist())
print(torch.asin(x.clamp(-1, 1)).tolist())
long = torch.arange(64, dtype=torch.float32) * 0.1
print(torch.sin(long).tolist())
