import torch
import torch.nn as nn

torch.manual_seed(0)
pred = torch.randn(4, 1)
target = torch.randn(4)
loss_fn = nn.MSELoss()
loss = loss_fn(pred, target)
print(loss)
