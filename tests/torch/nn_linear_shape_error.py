import torch
import torch.nn as nn
layer = nn.Linear(784, 256)
x = torch.randn(64, 100)
print(layer.weight.shape, x.shape)
layer(x)
