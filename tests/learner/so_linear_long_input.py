import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(3, 2)
x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(x.dtype)
print(layer(x.float()))
print(layer(x))
