import torch

x = torch.linspace(-1, 1, 16)
y = 3 * x - 0.5 + torch.sin(5 * x) * 0.1
w = torch.tensor(0.2, requires_grad=True)
b = torch.tensor(-0.1, requires_grad=True)
loss = ((w * x + b - y) ** 2).mean()
loss.backward()
print(repr(loss.item()), repr(w.grad.item()), repr(b.grad.item()))
