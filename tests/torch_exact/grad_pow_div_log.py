import torch

x = torch.tensor([0.5, 1.5, 2.5, 3.7], requires_grad=True)
y = torch.tensor([1.1, -0.4, 2.0, 0.3], requires_grad=True)
z = (x ** 3 / (y * y + 1) + torch.log(x) * y).sum()
z.backward()
print(repr(z.item()))
print(x.grad.tolist())
print(y.grad.tolist())
