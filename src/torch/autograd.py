# torch.autograd for cudatutor: grad() (the engine's own with create_graph or non-leaf inputs,
# else Tensor.backward into the leaves), backward(), Variable. torch.autograd.functional follows
# in autograd_functional.py.
import torch


def _as_tuple(x):
    if isinstance(x, torch.Tensor):
        return (x,)
    return tuple(x)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    outs = _as_tuple(outputs)
    ins = _as_tuple(inputs)
    if retain_graph is None:
        retain_graph = create_graph
    if len(ins) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    gos = [None] * len(outs) if grad_outputs is None else list(_as_tuple(grad_outputs))
    gos = gos + [None] * (len(outs) - len(gos))
    if create_graph or any(not t.is_leaf for t in ins):
        # the engine's own grad: gradients as tensors, with a graph when create_graph
        result = outs[0]._autograd_grad(list(outs), gos, list(ins), bool(retain_graph), bool(create_graph))
    else:
        result = _grad_through_backward(outs, ins, gos, retain_graph)
    final = []
    for i, (t, g) in enumerate(zip(ins, result)):
        if g is None and not allow_unused:
            raise RuntimeError('The differentiated Tensor at index %d appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.' % i)
        if g is None and materialize_grads:
            g = torch.zeros_like(t, requires_grad=bool(create_graph))
        final.append(g)
    return tuple(final)


def _grad_through_backward(outs, ins, gos, retain_graph):
    # leaf inputs without create_graph: backward into their .grad, put back afterwards
    for t in ins:
        if not t.requires_grad:
            raise RuntimeError('One of the differentiated Tensors does not require grad')
    saved = [t.grad for t in ins]
    for t in ins:
        t.grad = None
    try:
        for i, (o, g) in enumerate(zip(outs, gos)):
            o.backward(g, retain_graph=bool(retain_graph) or i < len(outs) - 1)
        return [t.grad for t in ins]
    finally:
        for t, s in zip(ins, saved):
            t.grad = s


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    ts = _as_tuple(tensors)
    gs = [None] * len(ts) if grad_tensors is None else list(_as_tuple(grad_tensors))
    keep = create_graph if retain_graph is None else retain_graph
    for i, (t, g) in enumerate(zip(ts, gs)):
        t.backward(g, retain_graph=bool(keep) or i < len(ts) - 1, create_graph=create_graph)


def Variable(data, requires_grad=False, volatile=False):
    t = data.detach()
    if requires_grad:
        t.requires_grad_(True)
    return t


class FunctionCtx:
    """The `ctx` of a custom Function: what forward keeps for backward."""

    def save_for_backward(self, *tensors):
        self._saved = tensors

    @property
    def saved_tensors(self):
        return getattr(self, "_saved", ())

    def mark_non_differentiable(self, *args):
        self._non_differentiable = args

    def mark_dirty(self, *args):
        self._dirty = args

    def set_materialize_grads(self, value):
        self._materialize_grads = value


class Function:
    """torch.autograd.Function: forward runs with grad mode off; its output becomes one node
    (`<Name>Backward`) whose backward calls the class's `backward(ctx, grad)`."""

    def __init__(self, *args, **kwargs):
        pass

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(
            isinstance(a, torch.Tensor) and a.requires_grad for a in args
        )
        new_style = cls.setup_context is not Function.setup_context
        with torch.no_grad():
            if new_style:
                out = cls.forward(*args, **kwargs)
            else:
                out = cls.forward(ctx, *args, **kwargs)
        if new_style:
            cls.setup_context(ctx, args, out)
        tensors = [a for a in args if isinstance(a, torch.Tensor)]
        if not (torch.is_grad_enabled() and any(t.requires_grad for t in tensors)):
            return out
        if not isinstance(out, torch.Tensor):
            raise NotImplementedError(
                "cudatutor's autograd.Function supports a forward that returns one tensor"
            )
        name = cls.__name__ + "Backward"
        n_args = len(args)
        positions = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]

        def run_backward(grad):
            grads = cls.backward(ctx, grad)
            if not isinstance(grads, tuple):
                grads = (grads,)
            if len(grads) != n_args:
                raise RuntimeError(
                    "function %s returned an incorrect number of gradients (expected %d, got %d)"
                    % (name, n_args, len(grads))
                )
            for i, (a, g) in enumerate(zip(args, grads)):
                if g is not None and not isinstance(a, torch.Tensor):
                    raise RuntimeError(
                        "function %s returned a gradient different than None at position %d, "
                        "but the corresponding forward input was not a Variable" % (name, i + 1)
                    )
            return [grads[i] for i in positions]

        return out._function_output(name, tensors, run_backward)


def once_differentiable(fn):
    return fn
