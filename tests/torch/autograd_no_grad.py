import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y)
z = x * 2
print(z.requires_grad, z.grad_fn is not None)
a = torch.ones(2)
print(a.requires_grad)
a.requires_grad_()
print(a.requires_grad)
print(torch.is_grad_enabled())
