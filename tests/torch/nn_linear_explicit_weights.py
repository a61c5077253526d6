import torch
import torch.nn as nn
lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    lin.bias.fill_(0.5)
x = torch.tensor([[1.0, 1.0], [0.0, -1.0]])
y = lin(x)
print(y.detach())
print(y.tolist())
print(y.shape, y.requires_grad)
