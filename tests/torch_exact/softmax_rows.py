import torch

logits = (torch.arange(40, dtype=torch.float32) * 0.37).sin().reshape(4, 10) * 3
p = torch.softmax(logits, dim=1)
print(p.sum(dim=1))
print(p.sum(dim=1).tolist())
print(p[0].tolist())
print(repr(p.max().item()))
