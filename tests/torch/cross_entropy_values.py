import torch
import torch.nn.functional as F
logits = torch.tensor([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]])
t = torch.tensor([2, 0])
print(F.cross_entropy(logits, t).item())
print(F.cross_entropy(logits, t, reduction='none').tolist())
print(F.cross_entropy(logits, t, reduction='sum').item())
print(F.cross_entropy(logits, t))
print(F.cross_entropy(logits, torch.tensor([0, 2])))
