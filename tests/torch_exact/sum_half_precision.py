import torch

h = torch.arange(200, dtype=torch.float16) * 0.01
print(h.sum().item(), h.sum().dtype)
print(h.mean().item())
b = torch.arange(200, dtype=torch.bfloat16) * 0.01
print(b.sum().item(), b.float().sum().item())
print(h.sum(dtype=torch.float32).item())
