# addcmul / addcdiv / lerp under create_graph=True: the gradients keep a graph and can be
# differentiated again (derivatives.yaml's formulas), with broadcasting operands. (lerp with a
# number weight is left out: its a-gradient is ATen's mul.Scalar, MulBackward1, a node name the
# engine does not record yet.)
import torch

torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, requires_grad=True)
c = torch.rand(3, 4).add(0.5).requires_grad_(True)
for name, f in [
    ("addcmul", lambda: torch.addcmul(a, b, c, value=0.5)),
    ("addcdiv", lambda: torch.addcdiv(a, b, c, value=-2.0)),
    ("lerp tensor", lambda: torch.lerp(a, b, c)),
]:
    for t in (a, b, c):
        t.grad = None
    y = f()
    grads = torch.autograd.grad((y * y).sum(), (a, b, c), create_graph=True)
    print(name, [(g.grad_fn.name() if g.grad_fn else None) for g in grads])
    for g in grads:
        print(g)
    sum(g.sum() for g in grads).backward()
    print(a.grad, b.grad, c.grad)
