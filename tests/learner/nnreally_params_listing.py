import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
for p in model.parameters():
    print(type(p).__name__, p.shape, p.requires_grad)
print(isinstance(model.weight, torch.Tensor))
print(isinstance(model.weight, nn.Parameter))
p = nn.Parameter(torch.ones(2))
print(p)
print(p * 2)
