import torch
import torch.nn.functional as F
logits = torch.randn(10, 5)
t = torch.zeros(10)
print(t.dtype)
F.cross_entropy(logits, t)
