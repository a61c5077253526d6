import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print(dy)
(d2y,) = torch.autograd.grad(dy, x)
print(d2y)
w = torch.tensor([1.0, -1.0], requires_grad=True)
loss = (w ** 4).sum()
g = torch.autograd.grad(loss, w)
print(g)
