import torch

for kwargs in [dict(amsgrad=True), dict(weight_decay=0.1), dict(betas=(0.8, 0.9), eps=1e-6)]:
    w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    opt = torch.optim.Adam([w], lr=0.05, **kwargs)
    for step in range(4):
        opt.zero_grad()
        (w.sin() * w).sum().backward()
        opt.step()
    print(kwargs, w.tolist())
