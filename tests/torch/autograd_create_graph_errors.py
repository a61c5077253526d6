import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0])
y = (x ** 2 * w).sum()
g = torch.autograd.grad(y, x, create_graph=True)[0]
print(g, g.grad_fn is not None, g.requires_grad)
try:
    torch.autograd.grad(y, w)
except RuntimeError as e:
    print("1", e)
try:
    torch.autograd.grad(w.sum(), x)
except RuntimeError as e:
    print("2", e)
z = torch.tensor([4.0], requires_grad=True)
try:
    torch.autograd.grad((x * 2).sum(), [x, z], create_graph=True)
except RuntimeError as e:
    print("3", e)
print(torch.autograd.grad((x * 2).sum(), [x, z], create_graph=True, allow_unused=True))
print(torch.autograd.grad((x * 2).sum(), [x, z], materialize_grads=True))
# with respect to a non-leaf
h = x * 3
print(torch.autograd.grad((h * h).sum(), h))
# create_graph keeps the graph (retain_graph defaults to it); without it the second pass fails
s = (x.exp()).sum()
torch.autograd.grad(s, x, create_graph=True)
print(torch.autograd.grad(s, x))
try:
    torch.autograd.grad(s, x)
except RuntimeError as e:
    print("4", e)
# .backward(create_graph=True) accumulates .grad with a graph, and warns
x.grad = None
(x ** 3).sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn is not None)
(x ** 3).sum().backward(create_graph=True)
print(x.grad)
