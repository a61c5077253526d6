import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(3, 2)
target = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
print(F.binary_cross_entropy_with_logits(logits, target))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 1.0]))(logits, target))
print(F.binary_cross_entropy(torch.sigmoid(logits), target))
print(nn.BCELoss(reduction='none')(torch.sigmoid(logits), target))
print(F.smooth_l1_loss(logits, target), F.l1_loss(logits, target))
print(F.kl_div(F.log_softmax(logits, 1), F.softmax(target, 1), reduction='batchmean'))
