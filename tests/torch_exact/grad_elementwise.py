import torch

x = torch.linspace(-2.0, 2.0, 9, requires_grad=True)
y = (torch.exp(x) * torch.sin(x) + x ** 3 / 3).sum()
y.backward()
print(repr(y.item()))
print(x.grad.tolist())
x.grad = None
torch.tanh(x * 1.5).sum().backward()
print(x.grad.tolist())
