# Other spellings of ops the engine has: Tensor.where, broadcast_to, take_along_dim,
# is_signed/is_same_size/is_nonzero, torch.concatenate, the torch.X spellings of
# torch.nn.functional ops, and F's in-place activations.
import torch
import torch.nn.functional as F


def show(label, f):
    try:
        r = f()
        print(label, r)
    except Exception as e:
        print(label, type(e).__name__, e)


torch.manual_seed(0)
x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
print(x.where(x > 0, torch.zeros(2, 3)), x.where(x < 0, 7.0))
w = x.clone().requires_grad_()
y = w.where(w > 0, torch.zeros(2, 3))
y.sum().backward()
print(y.grad_fn.name(), w.grad)

b = torch.broadcast_to(torch.tensor([1, 2, 3]), (2, 3))
print(b, b.stride(), torch.tensor([[1.0], [2.0]]).broadcast_to((2, 4)), x.broadcast_to([2, 3]).shape)
show('broadcast_to bad', lambda: torch.broadcast_to(torch.tensor([1, 2, 3]), (2, 2)))
g = w.broadcast_to((4, 2, 3))
print(g.grad_fn.name())

idx = torch.tensor([[0, 2], [1, 0]])
print(torch.take_along_dim(x, idx, dim=1), x.take_along_dim(torch.tensor([[1], [0]]), 0))
print(torch.take_along_dim(x, torch.tensor([5, 0, 3])), torch.take_along_dim(x, torch.tensor([[2]]), dim=-1))
print(torch.take_along_dim(x, torch.argsort(x, dim=1), dim=1))
show('take_along_dim dtype', lambda: torch.take_along_dim(x, torch.tensor([[0]], dtype=torch.int32), 1))
show('take_along_dim dims', lambda: torch.take_along_dim(x, torch.tensor([0]), 1))
t = torch.take_along_dim(w, idx, dim=1)
t.sum().backward()
print(t.grad_fn.name(), w.grad)

for dt in [torch.float32, torch.float64, torch.int64, torch.int8, torch.uint8, torch.bool]:
    z = torch.zeros(2, dtype=dt)
    print(dt, z.is_signed(), torch.is_signed(z))
print(x.is_same_size(torch.ones(2, 3)), torch.is_same_size(x, torch.ones(3, 2)))
print(torch.tensor([2.5]).is_nonzero(), torch.tensor(0).is_nonzero())
show('is_nonzero many', lambda: x.is_nonzero())
print(torch.concatenate([x, x]), torch.concatenate((x, x), dim=1).shape, torch.concatenate([x, x], axis=1).shape)

# torch.X spellings of torch.nn.functional ops
inp = torch.randn(2, 3, 8)
wt = torch.randn(4, 3, 3)
print(torch.equal(torch.conv1d(inp, wt, None, 1, 1), F.conv1d(inp, wt, None, 1, 1)))
img = torch.randn(1, 2, 5, 5)
k = torch.randn(3, 2, 3, 3)
print(torch.equal(torch.conv2d(img, k, stride=2), F.conv2d(img, k, stride=2)))
print(torch.conv2d(img, k, padding=1)[0, 0, 0])
a1, a2 = torch.randn(4, 5), torch.randn(4, 5)
print(torch.cosine_similarity(a1, a2), torch.cosine_similarity(a1, a2, dim=0, eps=1e-6))
print(torch.pairwise_distance(a1, a2))
bw = torch.randn(3, 5, 5)
print(torch.bilinear(a1, a2, bw, torch.zeros(3)))
print(torch.selu(x), torch.celu(x, 0.5), torch.threshold(x, 0.5, -1.0))
print(torch.hardshrink(x, 2.5), x.hardshrink(), torch.prelu(x, torch.tensor([0.25])), x.prelu(torch.tensor([0.1])))
print(torch.pixel_shuffle(torch.arange(8.).reshape(1, 4, 1, 2), 2))
print(torch.adaptive_avg_pool1d(inp, 3)[0, 0])
bn_in = torch.randn(4, 3)
rm, rv = torch.zeros(3), torch.ones(3)
print(torch.batch_norm(bn_in, torch.ones(3), torch.zeros(3), rm, rv, True, 0.1, 1e-5, False), rm, rv)
print(torch.layer_norm(bn_in, [3]), torch.group_norm(img, 2)[0, 0, 0])
print(torch.instance_norm(img, None, None, None, None, True, 0.1, 1e-5, False)[0, 1, 0])
logits, target = torch.randn(6), torch.tensor([1., 0., 1., 1., 0., 0.])
print(torch.binary_cross_entropy_with_logits(logits, target), torch.binary_cross_entropy_with_logits(logits, target, None, None, 0))
print(torch.binary_cross_entropy_with_logits(logits, target, torch.rand(6), torch.tensor(2.0), 2))
print(torch.alpha_dropout(x, 0.5, False), torch.dropout(x, 0.3, False))
torch.manual_seed(1)
d1 = torch.dropout(torch.ones(10), 0.5, True)
torch.manual_seed(1)
print(torch.equal(d1, F.dropout(torch.ones(10), 0.5, True)), d1)
emb = torch.randn(5, 3)
print(torch.embedding(emb, torch.tensor([[0, 4], [2, 2]])))
print(torch.rms_norm(bn_in, [3], eps=1e-6))

# F's in-place activations
w = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
for name, f in [('relu_', F.relu_), ('leaky_relu_', F.leaky_relu_), ('hardtanh_', F.hardtanh_),
                ('threshold_', lambda y: F.threshold_(y, 0.1, 20.0))]:
    y = w * 2
    r = f(y)
    print(name, r is y, y.grad_fn.name(), y)
    y.sum().backward()
    print(w.grad)
    w.grad = None
t = torch.tensor([-1.0, 0.0, 3.0])
print(F.leaky_relu_(t.clone(), 0.2), F.hardtanh_(t.clone(), -0.5, 0.5), F.relu_(t.clone()), F.threshold_(t.clone(), 0.0, 9.0))
show('leaf relu_', lambda: F.relu_(w))
show('leaf leaky_relu_', lambda: F.leaky_relu_(w))
show('int leaky_relu_', lambda: F.leaky_relu_(torch.tensor([1, -2])))
