import torch

x0 = torch.linspace(-2.1, 1.7, 20).reshape(4, 5)
for kw in [{}, {'dim': 1}, {'dim': 0, 'keepdim': True}, {'p': 1}, {'p': 1, 'dim': 1}]:
    x = x0.clone().requires_grad_(True)
    r = x.norm(**kw)
    (r * 2.5).sum().backward()
    print(kw, type(r.grad_fn).__name__)
    print(r.tolist())
    print(x.grad.tolist())
z = torch.zeros(3, requires_grad=True)
z.norm().backward()
print(z.grad.tolist())
