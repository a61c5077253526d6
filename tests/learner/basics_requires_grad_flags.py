import torch

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
print(x.requires_grad, y.requires_grad)
print(x.is_leaf, y.is_leaf)
print(x.grad)
print(y.grad_fn is not None)
z = torch.ones(3)
print(z.requires_grad, z.is_leaf, z.grad_fn)
z.requires_grad_(True)
print(z.requires_grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
print(w)
