import torch

# physics-informed (PINN): d2u/dx2 of u(x) = sin(2x) * x at points
xs = torch.linspace(-1.0, 1.0, 7, requires_grad=True)
u = torch.sin(2 * xs) * xs
(du,) = torch.autograd.grad(u, xs, torch.ones_like(u), create_graph=True)
(d2u,) = torch.autograd.grad(du, xs, torch.ones_like(du))
print(du.tolist())
print(d2u.tolist())
