import torch
t = torch.tensor([1, 2, 3])
print(t.sum())
print(t.float().mean())
print(t.mean())
