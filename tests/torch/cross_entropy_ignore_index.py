import torch
import torch.nn.functional as F
logits = torch.tensor([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0], [0.5, 0.5, 0.5]])
print(F.cross_entropy(logits, torch.tensor([2, 0, -100])).item())
print(F.cross_entropy(logits, torch.tensor([2, -100, -100])).item())
print(F.cross_entropy(logits, torch.tensor([2, 0, -100]), reduction='none').tolist())
print(F.cross_entropy(logits, torch.tensor([2, 0, 1]), ignore_index=1).item())
print(F.cross_entropy(logits, torch.tensor([2, 0, -100]), reduction='sum').item())
