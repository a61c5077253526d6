# register_hook on a tensor made by an op: hooks see the gradient reaching it in order, may
# replace it, and retain_grad keeps what is left after them.
import torch

h = torch.tensor([3.0], requires_grad=True)
q = h * 2
q.retain_grad()
handle = q.register_hook(lambda g: print("hook sees", g))
q.register_hook(lambda g: g * 10)
(q**2).sum().backward()
print(q.grad, h.grad)
handle.remove()
h.grad = None
r = h * 2
r.register_hook(lambda g: print("r hook", g))
(r * 4).sum().backward()
print(h.grad)
q2 = h * 5
q2.register_hook(lambda g: print("q2", g))
print(torch.autograd.grad(q2.sum(), h))
m = torch.nn.Linear(2, 1)
out = m(torch.ones(3, 2))
out.register_hook(lambda g: g / 3)
out.sum().backward()
print(m.bias.grad)
try:
    bad = h * 1
    bad.register_hook(lambda g: torch.ones(2))
    bad.sum().backward()
except RuntimeError as e:
    print(e)
try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print(e)
