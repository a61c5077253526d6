import torch

a = torch.tensor([7.5, -7.5, 0.3, -0.3, 1e6, 2.0])
b = torch.tensor([2.0, 2.0, 0.1, 0.1, 3.0, -0.7])
print((a / b).tolist())
print((a // b).tolist())
print(torch.remainder(a, b).tolist())
print(torch.fmod(a, b).tolist())
print(torch.div(a, b, rounding_mode='trunc').tolist())
print(torch.div(a, b, rounding_mode='floor').tolist())
