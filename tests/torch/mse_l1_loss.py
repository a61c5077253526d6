import torch
import torch.nn.functional as F
pred = torch.tensor([1.0, 2.0, 3.0])
target = torch.tensor([1.5, 2.0, 5.0])
print(F.mse_loss(pred, target))
print(F.mse_loss(pred, target, reduction='sum'))
print(F.l1_loss(pred, target))
print(F.binary_cross_entropy(torch.tensor([0.5, 0.9]), torch.tensor([1.0, 1.0])))
