import torch

# grad of grad through matrix products, softmax and log_softmax
torch.manual_seed(0)
W = torch.randn(3, 4, requires_grad=True)
x = torch.randn(2, 3, requires_grad=True)
b = torch.randn(4, requires_grad=True)

y = torch.softmax(x @ W + b, dim=1)
(gx,) = torch.autograd.grad((y * torch.arange(4.0)).sum(), x, create_graph=True)
print(type(gx.grad_fn).__name__)
print(gx.tolist())
gx.square().sum().backward()
print(W.grad.tolist())
print(x.grad.tolist())
print(b.grad.tolist())

W.grad = None
x.grad = None
b.grad = None
z = torch.log_softmax(torch.mm(x, W) + b, dim=-1)
gW, gb = torch.autograd.grad(z[:, 1].sum(), (W, b), create_graph=True)
print(type(gW.grad_fn).__name__, type(gb.grad_fn).__name__)
print(gW.tolist())
(gW.sum() + (gb * gb).sum()).backward()
print(W.grad.tolist())
print(x.grad.tolist())

# matmul of vectors and matrices
v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
A = torch.tensor([[2.0, 1.0, 0.0], [1.0, 3.0, -1.0], [0.0, -1.0, 4.0]])
q = v @ A @ v
(gv,) = torch.autograd.grad(q, v, create_graph=True)
(h0,) = torch.autograd.grad(gv[0], v)
print(gv.tolist(), h0.tolist())
