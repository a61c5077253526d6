import torch
import torch.nn as nn
lin = nn.Linear(4, 3)
print(lin)
print(lin.weight.shape, lin.bias.shape)
print(lin.in_features, lin.out_features)
x = torch.randn(8, 4)
print(lin(x).shape)
print(lin.weight.requires_grad, lin.weight.dtype)
print(sum(p.numel() for p in lin.parameters()))
print(nn.Linear(2, 5, bias=False))
