# torch.autograd for cudatutor: grad() through Tensor.backward (leaf inputs), Variable.
import torch


def _as_tuple(x):
    if isinstance(x, torch.Tensor):
        return (x,)
    return tuple(x)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    outs = _as_tuple(outputs)
    ins = _as_tuple(inputs)
    if create_graph:
        raise NotImplementedError("cudatutor's autograd does not support create_graph=True")
    for t in ins:
        if not t.requires_grad:
            raise RuntimeError('One of the differentiated Tensors does not require grad')
        if not t.is_leaf:
            raise NotImplementedError('cudatutor: torch.autograd.grad with respect to a non-leaf tensor is not supported yet')
    gos = [None] * len(outs) if grad_outputs is None else list(_as_tuple(grad_outputs))
    saved = [t.grad for t in ins]
    for t in ins:
        t.grad = None
    try:
        for i, (o, g) in enumerate(zip(outs, gos)):
            keep = retain_graph if retain_graph is not None else False
            o.backward(g, retain_graph=keep or i < len(outs) - 1)
        result = []
        for t in ins:
            g = t.grad
            if g is None and not allow_unused and not materialize_grads:
                raise RuntimeError('One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.')
            if g is None and materialize_grads:
                g = torch.zeros_like(t)
            result.append(g)
    finally:
        for t, s in zip(ins, saved):
            t.grad = s
    return tuple(result)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    ts = _as_tuple(tensors)
    gs = [None] * len(ts) if grad_tensors is None else list(_as_tuple(grad_tensors))
    for i, (t, g) in enumerate(zip(ts, gs)):
        t.backward(g, retain_graph=bool(retain_graph) or i < len(ts) - 1, create_graph=create_graph)


def Variable(data, requires_grad=False, volatile=False):
    t = data.detach()
    if requires_grad:
        t.requires_grad_(True)
    return t


def _jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy='reverse-mode'):
    # torch.autograd.functional.jacobian, reverse mode: one backward per output element
    if create_graph:
        raise NotImplementedError("cudatutor's autograd does not support create_graph=True")
    is_tuple = isinstance(inputs, (tuple, list))
    ins = tuple(inputs) if is_tuple else (inputs,)
    ins = tuple(x.detach().requires_grad_(True) for x in ins)
    out = func(*ins)
    out_tuple = isinstance(out, (tuple, list))
    outs = tuple(out) if out_tuple else (out,)
    jac = []
    for o in outs:
        rows = [[] for _ in ins]
        flat = o.reshape(-1)
        for k in range(flat.numel()):
            if flat.requires_grad:
                gs = grad(flat[k], ins, retain_graph=True, allow_unused=True)
            else:
                gs = [None] * len(ins)
            for i, (g, x) in enumerate(zip(gs, ins)):
                rows[i].append(torch.zeros_like(x) if g is None else g)
        per_in = []
        for i, x in enumerate(ins):
            shape = tuple(o.shape) + tuple(x.shape)
            if rows[i]:
                per_in.append(torch.stack(rows[i], 0).reshape(shape))
            else:
                per_in.append(torch.zeros(shape, dtype=x.dtype))
        jac.append(tuple(per_in) if is_tuple else per_in[0])
    return tuple(jac) if out_tuple else jac[0]


class functional:
    jacobian = staticmethod(_jacobian)
