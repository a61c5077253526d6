import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(4, 5)
target = torch.tensor([0, 3, 4, 1])
print(F.cross_entropy(logits, target))
print(F.cross_entropy(logits, target, label_smoothing=0.1))
print(nn.CrossEntropyLoss(label_smoothing=0.2)(logits, target))
print(nn.CrossEntropyLoss(ignore_index=3)(logits, target))
w = torch.tensor([1.0, 2.0, 1.0, 1.0, 0.5])
print(F.cross_entropy(logits, target, weight=w))
