import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.clone()
c = a.detach()
d = a.detach().clone()
print(b.requires_grad, c.requires_grad, d.requires_grad)
print(b.grad_fn.name())
c[0] = 10.0
print(a)
d[1] = 20.0
print(a)
print(d)
