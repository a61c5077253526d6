import torch

a = torch.tensor([0.0, 1.0, -2.0, 3.3, 100.0])
b = torch.tensor([1.0, 3.0, 2.0, -1.1, 0.001])
print(torch.lerp(a, b, 0.3).tolist())
print(torch.lerp(a, b, 0.7).tolist())
print(torch.lerp(a, b, torch.tensor([0.0, 0.25, 0.5, 0.75, 1.0])).tolist())
t = torch.tensor([0.5, 0.5, 0.5, 0.5, 0.5])
print(torch.addcmul(t, a, b, value=0.1).tolist())
print(torch.addcdiv(t, a, b + 2, value=-0.01).tolist())
