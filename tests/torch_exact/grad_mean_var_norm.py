import torch

x = torch.linspace(0.1, 2.0, 11, requires_grad=True)
x.var().backward()
print(x.grad.tolist())
x.grad = None
x.norm().backward()
print(x.grad.tolist())
x.grad = None
x.std().backward()
print(x.grad.tolist())
x.grad = None
x.mean().backward()
print(x.grad.tolist())
