# Which operand dtypes the losses and convolutions take, and PyTorch's CPU words when they do
# not: binary_cross_entropy's target must be the input's dtype ("Found dtype Long but expected
# Float") while its weight promotes; huber and smooth_l1 take integral, bool and half targets
# (smooth_l1 promotes a float64 target, huber's backward refuses any other dtype);
# masked_fill names a non-bool mask by its C type; conv checks the bias first.
import torch
import torch.nn as nn
import torch.nn.functional as F


def show(tag, f):
    try:
        r = f()
        print(tag, 'ok', r.dtype, r.requires_grad, r.tolist() if r.dim() == 0 else r.shape)
    except Exception as e:
        print(tag, type(e).__name__ + ':', e)


x = torch.tensor([0.25, 0.5, 0.875], requires_grad=True)
xd = torch.tensor([0.25, 0.5, 0.875], dtype=torch.float64, requires_grad=True)
targets = [('long', torch.tensor([1, 0, 1])), ('int', torch.tensor([1, 0, 1]).int()),
           ('bool', torch.tensor([True, False, True])), ('half', torch.tensor([1., 0, 1]).half()),
           ('f32', torch.tensor([1., 0, 1])), ('f64', torch.tensor([1., 0, 1], dtype=torch.float64))]
for name, fn in [('bce', F.binary_cross_entropy), ('huber', F.huber_loss), ('sl1', F.smooth_l1_loss)]:
    for tn, t in targets:
        show(f'{name} f32/{tn}', lambda: fn(x, t))
        show(f'{name} f64/{tn}', lambda: fn(xd, t))
        show(f'{name} none f32/{tn}', lambda: fn(x, t, reduction='none'))
show('bce weight long', lambda: F.binary_cross_entropy(x, torch.ones(3), weight=torch.tensor([1, 2, 3])))
show('bce weight bool', lambda: F.binary_cross_entropy(x, torch.ones(3), weight=torch.tensor([True, False, True])))

for name, fn in [('huber', F.huber_loss), ('sl1', F.smooth_l1_loss)]:
    for tn, t in [('long', torch.tensor([1, 0, 3])), ('half', torch.tensor([1., 0, 3]).half()), ('f64', torch.tensor([1., 0, 3], dtype=torch.float64))]:
        for xn, inp in [('f32', torch.tensor([0.3, 0.6, 2.0], requires_grad=True)),
                        ('f64', torch.tensor([0.3, 0.6, 2.0], dtype=torch.float64, requires_grad=True))]:
            try:
                loss = fn(inp, t)
                print(name, xn, tn, loss.dtype, loss.item())
                loss.backward()
                print('  grad', inp.grad.dtype, inp.grad.tolist())
            except RuntimeError as e:
                print('  RuntimeError:', e)
print(F.smooth_l1_loss(torch.tensor([0.3, 0.6, 2.0]), torch.tensor([1, 0, 3]), beta=0.5).item())
print(nn.HuberLoss(delta=0.5)(torch.tensor([0.3, 0.6, 2.0]), torch.tensor([1, 0, 3])).item())

for dt in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.float32,
           torch.float64, torch.float16, torch.bfloat16]:
    show(f'masked_fill {dt}', lambda: torch.randn(3).masked_fill(torch.tensor([1, 0, 1]).to(dt), 0))

torch.manual_seed(0)
for bias in [True, False]:
    for dt in [torch.float64, torch.uint8, torch.int64, torch.float16]:
        show(f'conv1d bias={bias} {dt}', lambda: nn.Conv1d(1, 1, 3, bias=bias)(torch.ones(1, 1, 5, dtype=dt)))
        show(f'conv2d bias={bias} {dt}', lambda: nn.Conv2d(1, 1, 3, bias=bias)(torch.ones(1, 1, 5, 5, dtype=dt)))
show('conv2d double weight, float bias', lambda: F.conv2d(torch.ones(1, 1, 4, 4), torch.ones(1, 1, 3, 3, dtype=torch.float64), torch.ones(1)))

# clamp's gradient with number bounds is zero at a bound (strictly inside passes); with
# tensor bounds a tie splits it
x = torch.tensor([-1.0, 1.0, 0.5, -1.5], requires_grad=True)
for f in [lambda: x.clamp(-1, 1), lambda: torch.clamp(x, min=-1), lambda: x.clamp(max=1), lambda: x.clamp_min(-1),
          lambda: x.clip(-1, 1), lambda: (x * 1).clamp_(-1, 1)]:
    x.grad = None
    f().sum().backward()
    print('clamp grad', x.grad)
