import torch
import torch.nn.functional as F
logits = torch.tensor([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]])
t = torch.tensor([2, 0])
w = torch.tensor([1.0, 2.0, 3.0])
print(F.cross_entropy(logits, t, weight=w).item())
print(F.cross_entropy(logits, t, weight=w, reduction='none').tolist())
print(F.cross_entropy(logits, t, weight=w, reduction='sum').item())
