import torch
import torch.nn.functional as F

logits = (torch.arange(30, dtype=torch.float32) * 0.53).sin().reshape(6, 5) * 2
target = torch.tensor([0, 4, 2, 2, 1, 3])
print(repr(F.cross_entropy(logits, target).item()))
print(repr(F.cross_entropy(logits, target, reduction='sum').item()))
print(F.cross_entropy(logits, target, reduction='none').tolist())
w = torch.tensor([1.0, 0.5, 2.0, 1.0, 0.25])
print(repr(F.cross_entropy(logits, target, weight=w).item()))
print(repr(F.cross_entropy(logits, target, label_smoothing=0.1).item()))
