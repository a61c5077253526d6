import torch
import torch.nn as nn

torch.manual_seed(0)
logits = torch.randn(2, 3)
softmax = nn.Softmax()
probs = softmax(logits)
print(probs)
print(probs.sum(dim=1))
