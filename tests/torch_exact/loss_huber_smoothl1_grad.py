import torch
import torch.nn.functional as F

# 37 elements: the backward kernels' vector half (32) and scalar tail differ in rounding
a0 = torch.linspace(-3.0, 3.0, 37)
b = torch.cos(torch.linspace(0.0, 6.0, 37)) * 0.0 + torch.linspace(1.5, -1.7, 37)
for name, f in [
    ('smooth_l1', lambda a: F.smooth_l1_loss(a, b)),
    ('smooth_l1_beta', lambda a: F.smooth_l1_loss(a, b, beta=0.37)),
    ('smooth_l1_sum', lambda a: F.smooth_l1_loss(a, b, beta=2.0, reduction='sum')),
    ('smooth_l1_zero', lambda a: F.smooth_l1_loss(a, b, beta=0.0)),
    ('huber', lambda a: F.huber_loss(a, b)),
    ('huber_delta', lambda a: F.huber_loss(a, b, delta=0.7)),
    ('huber_none', lambda a: F.huber_loss(a, b, delta=1.3, reduction='none').sum()),
]:
    a = a0.clone().requires_grad_(True)
    loss = f(a)
    loss.backward()
    print(name, type(loss.grad_fn).__name__, repr(loss.item()))
    print(a.grad.tolist())
t = b.clone().requires_grad_(True)
F.huber_loss(a0, t, delta=0.5).backward()
print(t.grad.tolist())
