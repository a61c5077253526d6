import torch

def vals(n, k, s, off):
    return [((i * k) % 1009) / s - off for i in range(n)]

target = torch.tensor(vals(23, 104729, 211.0, 2.1))
for cls, kwargs in [(torch.optim.Adam, dict(amsgrad=True)), (torch.optim.Adam, dict(maximize=True)),
                    (torch.optim.Adam, dict(weight_decay=0.1, amsgrad=True)),
                    (torch.optim.Adam, dict(betas=(0.5, 0.75), eps=1e-3)),
                    (torch.optim.AdamW, dict()), (torch.optim.AdamW, dict(weight_decay=0.2, amsgrad=True)),
                    (torch.optim.AdamW, dict(maximize=True, betas=(0.8, 0.95)))]:
    w = torch.tensor(vals(23, 7919, 337.0, 1.3), requires_grad=True)
    opt = cls([w], lr=0.05, **kwargs)
    for step in range(7):
        opt.zero_grad()
        ((w - target) ** 2 * (w + 3)).sum().backward()
        opt.step()
    print(cls.__name__, kwargs, w.tolist())
    print(sorted(opt.state[w].keys()), opt.state[w]['exp_avg_sq'].tolist())
