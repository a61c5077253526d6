# A custom torch.autograd.Function: forward runs with grad mode off, its output is one node
# named after the class, backward gets the saved tensors and returns one gradient per input.
import torch


class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k=2.0):
        ctx.save_for_backward(x)
        ctx.k = k
        print("needs", ctx.needs_input_grad, torch.is_grad_enabled())
        return x * x * k

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * ctx.k * x * g, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Sq.apply(x, 3.0)
print(y, type(y.grad_fn).__name__, y.grad_fn.name(), y.requires_grad, y.is_leaf)
print(repr(y.grad_fn).startswith("<torch.autograd.function.SqBackward object at 0x"))
print(len(y.grad_fn.next_functions), type(y.grad_fn.next_functions[0][0]).__name__)
y.sum().backward()
print(x.grad)
try:
    y.sum().backward()
except RuntimeError as e:
    print("again:", e)
print(Sq.apply(torch.tensor([3.0])))
with torch.no_grad():
    print(Sq.apply(x).requires_grad)


# backward functions that break autograd's checks, under one forward that clones
class Clone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()


class Bad(Clone):
    @staticmethod
    def backward(ctx, g):
        return g, g


class WrongShape(Clone):
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)


for broken in (Bad, WrongShape):
    try:
        broken.apply(torch.ones(2, requires_grad=True)).sum().backward()
    except RuntimeError as e:
        print(e)


class ClipGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, g):
        return g.clamp(-1, 1)


w = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
z = ClipGrad.apply(w * 3)
(z * 10).sum().backward()
print(w.grad, z.grad_fn.name())


# the new style: forward without ctx, setup_context saves what backward needs
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x**3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * g


a = torch.tensor([2.0, -1.0], requires_grad=True)
(g,) = torch.autograd.grad(Cube.apply(a).sum(), a)
print(g)


# a backward that raises: the learner's exception comes through unchanged
class Raises(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1

    @staticmethod
    def backward(ctx, g):
        raise ValueError("backward failed on purpose")


try:
    Raises.apply(torch.ones(1, requires_grad=True)).backward()
except ValueError as e:
    print("ValueError:", e)
