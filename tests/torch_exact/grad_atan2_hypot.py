import torch

a0 = torch.linspace(-2.0, 2.0, 21)
b0 = torch.linspace(1.5, -0.5, 21)
for f in [torch.atan2, torch.hypot]:
    a = a0.clone().requires_grad_(True)
    b = b0.clone().requires_grad_(True)
    y = f(a, b)
    y.backward(torch.linspace(1.0, 2.0, 21))
    print(type(y.grad_fn).__name__)
    print(a.grad.tolist())
    print(b.grad.tolist())
a = torch.linspace(-1.0, 1.0, 6).reshape(2, 3).requires_grad_(True)
b = torch.tensor([0.5, -2.0, 1.0], requires_grad=True)
torch.hypot(a, b).sum().backward()
print(a.grad.tolist(), b.grad.tolist())
