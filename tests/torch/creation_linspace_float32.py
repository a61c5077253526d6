import torch
print(torch.linspace(-0.5, 0.5, 12).tolist())
print(torch.linspace(0, 1, 7).tolist())
print(torch.linspace(-3, 10, 5).tolist())
print(torch.linspace(0, 1, 10, dtype=torch.float64).tolist())
print(torch.linspace(-1, 1, 100)[::7].tolist())
print(torch.linspace(0.1, 0.7, 13).tolist())
print(torch.linspace(-2.5, 3.3, 9).tolist())
