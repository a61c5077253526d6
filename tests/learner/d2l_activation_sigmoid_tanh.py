import torch

x = torch.arange(-4.0, 4.0, 1.0, requires_grad=True)
y = torch.sigmoid(x)
print(y)
y.backward(torch.ones_like(x))
print(x.grad)
x.grad.data.zero_()
y = torch.tanh(x)
print(y)
y.backward(torch.ones_like(x))
print(x.grad)
