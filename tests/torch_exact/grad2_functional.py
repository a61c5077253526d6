import torch
from torch.autograd.functional import hessian, jacobian, vjp, jvp, hvp, vhp

# torch.autograd.functional on small functions
A = torch.tensor([[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 4.0]])


def quad(x):
    return x @ A @ x


def vec(x):
    return torch.stack([x[0] * x[1], torch.sin(x[2]), x.sum() ** 2])


def two(x, y):
    return (x * y).sum() + torch.exp(x).sum() * y[0]


x = torch.tensor([0.5, -1.0, 2.0])
y = torch.tensor([1.5, 0.25, -0.75])
print(hessian(quad, x).tolist())
print(jacobian(vec, x).tolist())
print(jacobian(torch.tanh, x).tolist())
H = hessian(two, (x, y))
print([[h.tolist() for h in row] for row in H])
J = jacobian(two, (x, y))
print([j.tolist() for j in J])
v = torch.tensor([1.0, 0.5, -2.0])
out, r = vjp(vec, x, v)
print(out.tolist(), r.tolist())
out, r = jvp(vec, x, v)
print(out.tolist(), r.tolist())
out, r = hvp(quad, x, v)
print(out.item(), r.tolist())
out, r = vhp(lambda t: (t ** 3).sum(), x, v)
print(out.item(), r.tolist())
Hc = hessian(lambda t: (t ** 4).sum(), x, create_graph=True)
print(Hc.requires_grad, Hc.tolist())
print(jacobian(lambda t: t * 2, x, strict=False).tolist())
try:
    jacobian(lambda t: torch.ones(2), x, strict=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    hessian(lambda t: t * 2, x)
except RuntimeError as e:
    print("RuntimeError:", e)
print(hessian(lambda t: t.sum() * 3, x).tolist())
