import torch

# second derivatives of functions that use x in several places: the second backward adds
# the contributions reaching x in PyTorch's engine order
x = torch.tensor([0.5, -1.25, 2.0, 0.125, 3.5], requires_grad=True)
for f in [lambda t: t / (t * t + 1), lambda t: (t * t * t).mean() * t]:
    (g,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    (g2,) = torch.autograd.grad(g.sum(), x)
    print(g.tolist())
    print(g2.tolist())
