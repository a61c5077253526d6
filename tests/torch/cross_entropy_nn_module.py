import torch
import torch.nn.functional as F
import torch.nn as nn
loss_fn = nn.CrossEntropyLoss()
print(loss_fn)
logits = torch.tensor([[2.0, 0.5], [0.1, 0.2]])
print(loss_fn(logits, torch.tensor([0, 1])).item())
print(nn.CrossEntropyLoss(reduction='sum')(logits, torch.tensor([0, 1])).item())
