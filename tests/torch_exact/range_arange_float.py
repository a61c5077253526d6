import torch

print(torch.arange(0, 1, 0.1).tolist())
print(torch.arange(-1, 1, 0.3).tolist())
print(torch.arange(0.5, 3.0, 0.25).tolist())
print(len(torch.arange(0, 1, 0.1)), len(torch.arange(1, 2.5, 0.5)))
print(torch.arange(-8.0, 8.0, 0.1)[::20].tolist())
print(torch.logspace(-2, 2, 5).tolist())
print(torch.logspace(0, 1, 4, base=2).tolist())
