import torch
import torch.nn as nn

torch.manual_seed(0)
pred = torch.randn(3, requires_grad=True)
target = torch.tensor([1, 0, 2])
loss = nn.MSELoss()(pred, target)
print(loss)
loss.backward()
print(pred.grad)
