# grad_fn names and next_functions as PyTorch 2.15 records them (derivatives.yaml: one node per
# op, named after the op and its overload, one edge per differentiable Tensor input), and the
# gradients of ops that got a node of their own (round, mode, inverse, square, flip, tril, ...).
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 4, requires_grad=True)
w = torch.randn(4, 4, requires_grad=True)
c = torch.randn(4, 4)
i = torch.tensor([0, 2])


def edges(gf):
    return [None if f is None else f.name() for f, _ in gf.next_functions]


cases = [
    ('x**2', lambda: x ** 2),
    ('x**w', lambda: x ** w),
    ('2**x', lambda: 2 ** x),
    ('x**0.5', lambda: x ** 0.5),
    ('1-x', lambda: 1 - x),
    ('x-1', lambda: x - 1),
    ('x/2', lambda: x / 2),
    ('x.square()', lambda: x.square()),
    ('x.pow(3)', lambda: x.pow(3)),
    ('x.repeat(2,1)', lambda: x.repeat(2, 1)),
    ('x.max()', lambda: x.max()),
    ('x.max(0).values', lambda: x.max(0).values),
    ('x.min(1)[0]', lambda: x.min(1)[0]),
    ('x.amax(0)', lambda: x.amax(0)),
    ('x.amin()', lambda: x.amin()),
    ('matmul(x[0],w)', lambda: torch.matmul(x[0], w)),
    ('x.masked_fill(c>0,0)', lambda: x.masked_fill(c > 0, 0)),
    ('x.cumsum(0)', lambda: x.cumsum(0)),
    ('x.prod()', lambda: x.prod()),
    ('x.prod(0)', lambda: x.prod(0)),
    ('x.unbind()[0]', lambda: x.unbind()[0]),
    ('torch.addmm(c,x,w)', lambda: torch.addmm(c, x, w)),
    ('F.layer_norm(x,(4,))', lambda: F.layer_norm(x, (4,))),
    ('F.group_norm(x[None],2)', lambda: F.group_norm(x[None], 2)),
    ('F.batch_norm(x,None,None,training=True)', lambda: F.batch_norm(x, None, None, training=True)),
    ('F.pad(x,(1,1))', lambda: F.pad(x, (1, 1))),
    ('x.flip(0)', lambda: x.flip(0)),
    ('x.flip((0,1))', lambda: x.flip((0, 1))),
    ('x.fliplr()', lambda: x.fliplr()),
    ('x.roll(1)', lambda: x.roll(1)),
    ('x.tril()', lambda: x.tril()),
    ('x.triu()', lambda: x.triu()),
    ('x.round()', lambda: x.round()),
    ('x.logsumexp(1)', lambda: x.logsumexp(1)),
    ('x.fmod(2)', lambda: x.fmod(2)),
    ('x.remainder(2)', lambda: x.remainder(2)),
    ('x.trace()', lambda: x.trace()),
    ('x.cummax(0)[0]', lambda: x.cummax(0)[0]),
    ('x.sort(0)[0]', lambda: x.sort(0)[0]),
    ('x.topk(2)[0]', lambda: x.topk(2)[0]),
    ('x.kthvalue(2)[0]', lambda: x.kthvalue(2)[0]),
    ('x.median()', lambda: x.median()),
    ('x.mode()[0]', lambda: x.mode()[0]),
    ('x.nan_to_num()', lambda: x.nan_to_num()),
    ('x.masked_select(c>0)', lambda: x.masked_select(c > 0)),
    ('F.conv1d(x[None],w[:,:,None])', lambda: F.conv1d(x[None], w[:, :, None])),
    ('F.conv1d(x[None],w[:,:,None],w[0])', lambda: F.conv1d(x[None], w[:, :, None], w[0])),
    ('F.glu(x)', lambda: F.glu(x)),
    ('torch.var_mean(x)[1]', lambda: torch.var_mean(x)[1]),
    ('x.aminmax()[0]', lambda: x.aminmax()[0]),
    ('x.xlogy(w)', lambda: x.xlogy(w)),
    ('x.logcumsumexp(0)', lambda: x.logcumsumexp(0)),
    ('x.index_add(0,i,w[:2])', lambda: x.index_add(0, i, w[:2])),
    ('x.tile(2)', lambda: x.tile(2)),
    ('x.rot90()', lambda: x.rot90()),
    ('x.clamp_min(0)', lambda: x.clamp_min(0)),
    ('x.clamp_max(0)', lambda: x.clamp_max(0)),
    ('torch.linalg.inv(x)', lambda: torch.linalg.inv(x)),
    ('torch.inverse(x)', lambda: torch.inverse(x)),
    ('torch.cumprod(x,0)', lambda: torch.cumprod(x, 0)),
]
for name, f in cases:
    gf = f().grad_fn
    print(name, gf.name(), edges(gf))

# a node without a formula here still links its input, and nodes deeper in the graph too
y = x.cumsum(0) * 2
print(edges(y.grad_fn), edges(y.grad_fn.next_functions[0][0]))
print(edges((x.tril() + 1).grad_fn.next_functions[0][0]))

# the printed tensor names the node
s = torch.tensor([[0.25, -1.5], [2.0, 3.5]], requires_grad=True)
print(1 - s)
print(s ** 2)
print(2 ** s)
print(s.flip(0))
print(s.round())
print(s.clamp_min(0))
print(s.logsumexp(1))

# gradients through the ops that now have a node: the same bits as PyTorch


def grad_of(f, *leaves):
    for t in leaves:
        t.grad = None
    f().backward()
    return [t.grad.tolist() for t in leaves]


g = torch.randn(4, 4)
print(grad_of(lambda: (x.round() * g).sum(), x))
print(grad_of(lambda: (x.mode(0)[0] * g[0]).sum(), x))
# the inverse's own values differ from LAPACK's in the last bits, so its gradient is checked
# against derivatives.yaml's formula on those values: -inverse^T @ (grad @ inverse^T)
Y = torch.linalg.inv(x).detach()
print(torch.equal(torch.tensor(grad_of(lambda: (torch.linalg.inv(x) * g).sum(), x)[0]), -(Y.T @ (g @ Y.T))))
print(torch.equal(torch.tensor(grad_of(lambda: (torch.inverse(x) * w).sum(), x)[0]), -(Y.T @ (w.detach() @ Y.T))))
print(grad_of(lambda: (x.square() * g).sum(), x))
print(grad_of(lambda: (x.flip(0) * g).sum() + (x.flip((0, 1)) * g).sum(), x))
print(grad_of(lambda: (x.tril(1) * g).sum() + (x.triu() * g).sum(), x))
print(grad_of(lambda: (F.pad(x, (1, 2)) * torch.randn(4, 7)).sum(), x))
print(grad_of(lambda: ((1 - x) * g).sum() + (2 ** x * g).sum(), x))
print(grad_of(lambda: (x.unbind(1)[2] * g[0]).sum() + (x.unbind()[1] * g[1]).sum(), x))

# second order through a node that kept its engine node (tril's masked_fill) and through one
# over several ops (F.pad's ConstantPadNdBackward0 over a cat)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
(dm,) = torch.autograd.grad((m.tril() ** 3).sum(), m, create_graph=True)
print(torch.autograd.grad(dm.sum(), m)[0].tolist())
(dl,) = torch.autograd.grad((F.pad(m, (1, 1)) ** 3).sum(), m, create_graph=True)
print(torch.autograd.grad(dl.sum(), m)[0].tolist())
