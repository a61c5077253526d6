import torch

def vals(n, k, s, off):
    return [((i * k) % 1009) / s - off for i in range(n)]

target = torch.tensor(vals(21, 104729, 211.0, 2.1))
for kwargs in [dict(), dict(alpha=0.9), dict(centered=True), dict(momentum=0.9), dict(centered=True, momentum=0.5),
               dict(weight_decay=0.1, eps=1e-4), dict(maximize=True, alpha=0.8)]:
    w = torch.tensor(vals(21, 7919, 337.0, 1.3), requires_grad=True)
    opt = torch.optim.RMSprop([w], lr=0.01, **kwargs)
    for step in range(6):
        opt.zero_grad()
        ((w - target) ** 2).sum().backward()
        opt.step()
    print(kwargs, w.tolist())
    print(sorted(opt.state[w].keys()), opt.state[w]['square_avg'].tolist())
