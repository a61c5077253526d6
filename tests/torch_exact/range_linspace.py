import torch

print(torch.linspace(0, 1, 7).tolist())
print(torch.linspace(-3, 5, 100).tolist())
print(torch.linspace(0.1, 0.9, 9).tolist())
print(torch.linspace(1, 0, 6).tolist())
print(torch.linspace(-1e3, 1e3, 11).tolist())
print(torch.linspace(0, 1, 5, dtype=torch.float64).tolist())
