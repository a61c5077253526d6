import torch

x = (torch.arange(4 * 5 * 6, dtype=torch.float32) * 0.071).cos().reshape(4, 5, 6)
print(x.sum(dim=(0, 2)).tolist())
print(x.sum(dim=-1).tolist())
print(x.mean(dim=(1, 2)).tolist())
print(x.sum(dim=1, keepdim=True).shape, x.sum(dim=1, keepdim=True)[0, 0].tolist())
