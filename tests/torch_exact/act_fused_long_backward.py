import torch
import torch.nn.functional as F

x0 = torch.linspace(-7.0, 7.0, 45) * 1.037 + 0.013
w = torch.linspace(0.5, 1.5, 45)
for name, f in [
    ('silu', F.silu),
    ('softplus', lambda x: F.softplus(x, beta=2.5, threshold=4.0)),
    ('elu', lambda x: F.elu(x, alpha=0.7)),
    ('selu', F.selu),
    ('celu', lambda x: F.celu(x, alpha=1.3)),
    ('leaky_relu', lambda x: F.leaky_relu(x, 0.03)),
    ('mish', F.mish),
    ('hardswish', F.hardswish),
    ('hardsigmoid', F.hardsigmoid),
    ('hardtanh', lambda x: F.hardtanh(x, -2.0, 1.5)),
    ('relu6', F.relu6),
    ('logsigmoid', F.logsigmoid),
    ('gelu', F.gelu),
    ('gelu_tanh', lambda x: F.gelu(x, approximate='tanh')),
]:
    x = x0.clone().requires_grad_(True)
    y = f(x)
    (y * w).sum().backward()
    print(name, type(y.grad_fn).__name__)
    print(x.grad.tolist())
