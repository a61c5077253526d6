import torch

# gradients whose formulas use only exact arithmetic, rsqrt and the forward's own kernels
x0 = torch.linspace(-0.9, 0.9, 37)
for name in ['log1p', 'expm1', 'asin', 'acos', 'atan', 'asinh', 'atanh', 'rsqrt', 'trunc']:
    x = (x0.abs() + 0.05 if name == 'rsqrt' else x0).clone().requires_grad_(True)
    y = getattr(torch, name)(x)
    y.backward(torch.linspace(0.5, 1.5, 37))
    print(name, type(y.grad_fn).__name__)
    print(x.grad.tolist())
x = (x0.abs() + 1.1).requires_grad_(True)
torch.acosh(x).sum().backward()
print(x.grad.tolist())
