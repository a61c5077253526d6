import torch

for kwargs in [dict(), dict(momentum=0.9), dict(centered=True), dict(alpha=0.9, weight_decay=0.01)]:
    w = torch.tensor([1.5, -0.7, 0.3], requires_grad=True)
    opt = torch.optim.RMSprop([w], lr=0.01, **kwargs)
    for step in range(5):
        opt.zero_grad()
        ((w - 0.25) ** 2).sum().backward()
        opt.step()
    print(kwargs, w.tolist())
