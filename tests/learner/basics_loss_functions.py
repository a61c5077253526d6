import torch
import torch.nn as nn

torch.manual_seed(0)
logits = torch.randn(4, 3)
target = torch.tensor([0, 2, 1, 2])
print(nn.CrossEntropyLoss()(logits, target))
print(nn.NLLLoss()(torch.log_softmax(logits, dim=1), target))
print(nn.CrossEntropyLoss(reduction="none")(logits, target))
print(nn.CrossEntropyLoss(reduction="sum")(logits, target))
pred = torch.randn(4)
y = torch.randn(4)
print(nn.MSELoss()(pred, y))
print(nn.L1Loss()(pred, y))
