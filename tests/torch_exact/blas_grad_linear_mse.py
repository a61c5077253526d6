import torch
import torch.nn as nn

# Linear's forward and backward are matrix products (BLAS order)
lin = nn.Linear(4, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3, 0.05], [-0.4, 0.25, 0.15, -0.1]]))
    lin.bias.copy_(torch.tensor([0.01, -0.02]))
x = torch.linspace(-1.0, 1.0, 20).reshape(5, 4)
y = torch.linspace(0.5, -0.5, 10).reshape(5, 2)
loss = nn.functional.mse_loss(lin(x), y)
loss.backward()
print(repr(loss.item()))
print(lin.weight.grad.tolist())
print(lin.bias.grad.tolist())
