import torch
import torch.nn as nn

lin = nn.Linear(6, 3)
with torch.no_grad():
    lin.weight.copy_(torch.linspace(-0.5, 0.5, 18).reshape(3, 6))
    lin.bias.copy_(torch.tensor([0.1, -0.2, 0.05]))
x = torch.linspace(-1.0, 2.0, 24).reshape(4, 6)
print(lin(x).tolist())
print(torch.nn.functional.linear(x, lin.weight).tolist())
print(lin(x[0]).tolist())
