# In-place view ops change the tensor object itself (every name bound to it), keep its storage,
# and rename the autograd node (UnsqueezeBackward1 for unsqueeze_ ...).
import torch

x = torch.arange(6.).reshape(2, 3)
alias = x
r = x.unsqueeze_(0)
print(r is x, alias.shape, x.stride())
x.squeeze_()
print(x.shape)
x.t_()
print(x.shape, x.stride(), x.is_contiguous())
x.transpose_(0, 1)
print(x.shape, x.stride())
x.swapdims_(0, 1)
print(x.shape)
y = torch.arange(6.)
y.as_strided_((2, 2), (1, 2), 1)
print(y)
print(torch.as_strided(torch.arange(6.), (3,), (2,)))
z = torch.arange(6.)[2:]
print(torch.as_strided(z, (2,), (1,)), torch.as_strided(z, (2,), (1,), 0))

a = torch.ones(2, 3, requires_grad=True)
b = a * 2
ops = {"unsqueeze_(1)": lambda t: t.unsqueeze_(1), "squeeze_()": lambda t: t.squeeze_(),
       "squeeze_(1)": lambda t: t.unsqueeze_(1).squeeze_(1), "t_()": lambda t: t.t_(),
       "transpose_(0, 1)": lambda t: t.transpose_(0, 1)}
for name, op in ops.items():
    b = a * 2
    op(b)
    print(name, b.grad_fn.name(), tuple(b.shape))
b = (a * 2).unsqueeze_(0)
b.sum().backward()
print(a.grad)

bad = [lambda: a.unsqueeze_(0), lambda: a.resize_(6),
       lambda: torch.as_strided(torch.arange(6.), (2, 2), (1, 2), 5),
       lambda: torch.arange(6.).as_strided((2,), (-1,)),
       lambda: torch.arange(6.).as_strided((2, 2), (1,)), lambda: torch.ones(2, 2, 2).t_()]
for f in bad:
    try:
        f()
    except RuntimeError as e:
        print(type(e).__name__, e)

w = torch.arange(6.)
w.resize_(2, 2)
print(w)
w.resize_(3)
print(w, w.stride())
v = torch.zeros(2)
v.resize_as_(torch.ones(1, 2))
print(v.shape)
s = torch.arange(4.)
t = torch.empty(0)
t.set_(s)
t[0] = 9
print(s, t.shape)
