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
