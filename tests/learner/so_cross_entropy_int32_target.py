import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(4, 3)
labels = torch.tensor([0, 2, 1, 1], dtype=torch.int32)
print(labels.dtype)
loss = F.cross_entropy(logits, labels)
print(loss)
