import torch

x0 = torch.linspace(-1.3, 2.9, 24).reshape(4, 6) ** 2
for kw in [{}, {'dim': 1}, {'dim': 0, 'keepdim': True}, {'dim': (0, 1)}, {'dim': 1, 'unbiased': False},
           {'dim': 0, 'correction': 0}]:
    for std in (False, True):
        x = x0.clone().requires_grad_(True)
        r = x.std(**kw) if std else x.var(**kw)
        (r * torch.linspace(0.5, 1.5, r.numel()).reshape(r.shape)).sum().backward()
        print(kw, std, type(r.grad_fn).__name__)
        print(r.tolist())
        print(x.grad.tolist())
