import torch
import torch.nn.functional as F
logits = torch.tensor([[2.0, 0.5, 0.1], [0.3, 1.5, 0.2], [0.1, 0.2, 3.0], [1.0, 1.0, 1.0]], device='cuda')
labels = torch.tensor([0, -1, 2, 1], device='cuda')
print(F.cross_entropy(logits, labels, ignore_index=-1).item())
w = torch.tensor([1.0, 5.0, 1.0], device='cuda')
print(F.cross_entropy(logits, labels.clamp(min=0), weight=w).item())
print(F.cross_entropy(logits, labels.clamp(min=0), reduction='none').tolist())
print(F.log_softmax(logits, dim=1).sum(dim=1).tolist())
