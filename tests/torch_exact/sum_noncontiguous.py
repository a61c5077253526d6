import torch

x = (torch.arange(60, dtype=torch.float32) * 0.13 - 2.0).reshape(6, 10)
print(x.t().sum(dim=1).tolist())
print(x[:, ::2].sum().item())
print(x[::2, 1:].sum(dim=0).tolist())
print(x.t().contiguous().sum(dim=0).tolist())
print(x.t().mean().item())
