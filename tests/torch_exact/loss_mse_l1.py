import torch
import torch.nn.functional as F

pred = torch.linspace(-1.0, 2.0, 13)
target = (torch.arange(13, dtype=torch.float32) * 0.41).sin()
print(repr(F.mse_loss(pred, target).item()))
print(repr(F.mse_loss(pred, target, reduction='sum').item()))
print(F.mse_loss(pred, target, reduction='none').tolist())
print(repr(F.l1_loss(pred, target).item()))
print(repr(torch.nn.MSELoss()(pred.reshape(13, 1), target.reshape(13, 1)).item()))
