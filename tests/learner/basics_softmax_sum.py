import torch
from torch import nn

torch.manual_seed(7)
logits = torch.randn(2, 5)
probs = nn.Softmax(dim=1)(logits)
print(probs)
print(probs.sum(dim=1))
print(probs.argmax(1))
print(torch.softmax(logits, dim=0).sum(0))
