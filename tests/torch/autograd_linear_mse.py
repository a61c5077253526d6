import torch
import torch.nn as nn
import torch.nn.functional as F
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.5, 0.4, -0.1]]))
    lin.bias.copy_(torch.tensor([0.05, -0.05]))
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
y = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
out = lin(x)
print(out)
loss = F.mse_loss(out, y)
print(loss)
loss.backward()
print(lin.weight.grad)
print(lin.bias.grad)
print(x.grad, out.grad_fn is not None, lin.weight.is_leaf)
lin.zero_grad()
print(lin.weight.grad)
