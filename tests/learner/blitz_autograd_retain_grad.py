import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.retain_grad()
z = (y ** 2).sum()
z.backward()
print(y.grad)
print(x.grad)
h = x.register_hook(lambda g: g * 10)
x.grad = None
(x * 1).sum().backward()
print(x.grad)
h.remove()
