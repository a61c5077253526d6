# In-place ops on tensors that autograd records: the tensor takes the op's node (ReluBackward0
# after relu_(), CopySlices after y[i] = v, CopyBackwards, ZeroBackward0, FillBackward2,
# MaskedFillBackward0) and backward runs through it, with the values from before the write
# where the derivative needs them; PyTorch's refusals (a leaf, a result dtype the tensor cannot
# hold) come first.
import torch
import torch.nn as nn
import torch.nn.functional as F


def names(t):
    return t.grad_fn.name(), [type(n).__name__ if n is not None else None for n, _ in t.grad_fn.next_functions]


def run(tag, f):
    x = torch.tensor([-1.5, 0.5, 2.0, -0.25], requires_grad=True)
    w = torch.tensor([0.5, -2.0, 1.5, 3.0], requires_grad=True)
    try:
        y = f(x, w)
        print(tag, y, names(y))
        y.pow(2).sum().backward()
        print('  grads', x.grad, w.grad)
    except Exception as e:
        print(tag, type(e).__name__ + ':', e)


run('relu_', lambda x, w: (x * w).relu_())
run('exp_', lambda x, w: (x * 1).exp_())
run('sin_', lambda x, w: (x * 2).sin_())
run('sigmoid_', lambda x, w: (x + w).sigmoid_())
run('clamp_', lambda x, w: (x * w).clamp_(min=-1, max=1))
run('masked_fill_', lambda x, w: (x * w).masked_fill_(x > 0, 0.5))
run('copy_ tracked src', lambda x, w: (x * 1).copy_(w * 3))
run('copy_ plain src', lambda x, w: (x * 1).copy_(torch.tensor([1., 2., 3., 4.])))
run('copy_ into plain', lambda x, w: torch.zeros(4).copy_(w * w))
run('copy_ broadcast', lambda x, w: (x * 1).copy_(w[:1] * 2))
run('zero_', lambda x, w: (x * w).zero_() + x)
run('fill_', lambda x, w: (x * w).fill_(2) * x)


def setitem(key, value):
    def f(x, w):
        y = x * w
        y[key] = value(x, w) if callable(value) else value
        return y
    return f


run('setitem const', setitem(0, 3.0))
run('setitem slice tracked', setitem(slice(1, 3), lambda x, w: w[:2] * 10))
run('setitem broadcast tracked', setitem(slice(0, 3), lambda x, w: w[3:] * 2))
run('setitem mask', setitem(torch.tensor([True, False, True, False]), 0.0))
run('setitem index list', setitem(torch.tensor([3, 1]), lambda x, w: x[:2] + w[:2]))
run('setitem plain value', setitem(slice(None), torch.tensor([9., 8., 7., 6.])))
run('F.relu inplace', lambda x, w: F.relu(x * w, inplace=True))
run('leaky_relu inplace', lambda x, w: F.leaky_relu(x * w, 0.1, inplace=True))
run('elu inplace', lambda x, w: F.elu(x * w, inplace=True))
run('leaf relu_', lambda x, w: x.relu_())
def leaf_setitem(x, w):
    x[0] = 1.0
    return x


run('leaf setitem', leaf_setitem)
run('leaf copy_', lambda x, w: w.copy_(x))
run('leaf zero_', lambda x, w: w.zero_())


def long_sqrt(x, w):
    return torch.tensor([4, 9]).sqrt_()


run('long sqrt_', long_sqrt)

y = torch.tensor([1.0, -2.0])
y.relu_()
print('no grad', y, y.grad_fn)
with torch.no_grad():
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    p.mul_(3)
    p[0] = 5.0
    p.zero_()
    p.copy_(torch.tensor([7.0, 8.0]))
print('under no_grad', p, p.grad_fn, p.is_leaf)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(inplace=True), nn.Linear(4, 2), nn.ReLU(inplace=True))
inp = torch.randn(5, 3)
out = model(inp)
print(out.grad_fn.name())
out.sum().backward()
print([p.grad for p in model.parameters()])
