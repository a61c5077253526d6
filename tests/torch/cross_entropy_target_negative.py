import torch
import torch.nn.functional as F
logits = torch.randn(10, 5)
t = torch.tensor([0, 1, 2, 3, 4, 0, 1, 2, 3, -1])
print(t.min().item())
F.cross_entropy(logits, t)
