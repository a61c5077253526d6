import torch

x = (torch.arange(7 * 13, dtype=torch.float32) * 0.37).sin().reshape(7, 13)
print(x.sum(dim=0).tolist())
print(x.sum(dim=1).tolist())
print(repr(x.sum().item()))
y = (torch.arange(100 * 37, dtype=torch.float32) * 0.01).reshape(100, 37)
print(y.sum(dim=0).tolist())
print(y.sum(dim=1)[:10].tolist())
print(y.mean(dim=1)[-5:].tolist())
