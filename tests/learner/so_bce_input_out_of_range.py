import torch
import torch.nn as nn

torch.manual_seed(0)
logits = torch.randn(4) * 3
target = torch.tensor([1.0, 0.0, 1.0, 0.0])
print(nn.BCELoss()(torch.sigmoid(logits), target))
print(nn.BCEWithLogitsLoss()(logits, target))
print(nn.BCELoss()(logits, target))
