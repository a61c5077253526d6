import torch
print(torch.arange(5))
print(torch.arange(1, 10, 3))
print(torch.arange(0, 1, 0.25))
print(torch.arange(5.0))
print(torch.linspace(0, 1, 5))
print(torch.eye(3))
print(torch.arange(10, 0, -2))
print(torch.arange(5).dtype, torch.arange(5.0).dtype, torch.linspace(0, 1, 3).dtype)
