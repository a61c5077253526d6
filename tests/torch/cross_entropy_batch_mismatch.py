import torch
import torch.nn.functional as F
logits = torch.randn(10, 5)
t = torch.randint(0, 5, (8,))
print(logits.shape[0], t.shape[0])
F.cross_entropy(logits, t)
