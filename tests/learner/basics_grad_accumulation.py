import torch

x = torch.tensor([2.0, 3.0], requires_grad=True)
y = (x ** 2).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
x.grad = None
(x * 3).sum().backward()
print(x.grad)
x.grad.zero_()
print(x.grad)
