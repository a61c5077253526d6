import torch

# second (and third) derivatives through create_graph=True: each gradient has a grad_fn and
# is differentiated again; float32 bits as PyTorch's
x = torch.tensor([0.5, -1.25, 2.0, 0.125, 3.5], requires_grad=True)
funcs = [
    ("cube", lambda t: t ** 3),
    ("pow2.5", lambda t: t.abs() ** 2.5),
    ("sin", torch.sin),
    ("cos", torch.cos),
    ("exp", torch.exp),
    ("tanh", torch.tanh),
    ("sigmoid", torch.sigmoid),
    ("log", lambda t: torch.log(t * t + 1)),
    ("sqrt", lambda t: torch.sqrt(t * t + 2)),
    ("recip", lambda t: torch.reciprocal(t + 4)),
    ("relu", lambda t: torch.relu(t) * t),
]
for name, f in funcs:
    y = f(x)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    (g2,) = torch.autograd.grad(g.sum(), x)
    print(name, type(g.grad_fn).__name__ if g.grad_fn is not None else None)
    print(g.tolist())
    print(g2.tolist())

# the gradient with a graph is the plain gradient, bit for bit
for name, f in funcs:
    (plain,) = torch.autograd.grad(f(x).sum(), x)
    (graph,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    print(name, torch.equal(plain, graph.detach()))

# third derivative of x**3 and of sin
g = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)[0]
g2 = torch.autograd.grad(g.sum(), x, create_graph=True)[0]
g3 = torch.autograd.grad(g2.sum(), x)[0]
print(g2.grad_fn is not None, g3.tolist())
g = torch.autograd.grad(torch.sin(x).sum(), x, create_graph=True)[0]
g2 = torch.autograd.grad(g.sum(), x, create_graph=True)[0]
g3 = torch.autograd.grad(g2.sum(), x)[0]
print(g3.tolist())

# grad_outputs with a graph of its own, and .backward() through a gradient
v = torch.tensor([1.0, 2.0, -1.0, 0.5, 0.25], requires_grad=True)
(g,) = torch.autograd.grad(torch.exp(x), x, grad_outputs=v, create_graph=True)
g.pow(2).sum().backward()
print(x.grad.tolist())
print(v.grad.tolist())
