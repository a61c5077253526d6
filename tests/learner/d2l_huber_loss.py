import torch
from torch import nn

torch.manual_seed(0)
y_hat = torch.randn(6)
y = torch.randn(6)
print(nn.HuberLoss()(y_hat, y))
print(nn.HuberLoss(delta=0.5)(y_hat, y))
print(nn.SmoothL1Loss()(y_hat, y))
print(nn.MSELoss(reduction='sum')(y_hat, y))
