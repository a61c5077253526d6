import torch
import torch.nn as nn

torch.manual_seed(0)
logits = torch.randn(4)
target = torch.tensor([1, 0, 1, 0])
loss_fn = nn.BCEWithLogitsLoss()
print(loss_fn(logits, target.float()))
print(loss_fn(logits, target))
