import torch

def vals(n, k, s, off):
    return [((i * k) % 1009) / s - off for i in range(n)]

target = torch.tensor(vals(19, 53, 123.0, 3.3))
for kwargs in [dict(momentum=0.9), dict(momentum=0.9, nesterov=True), dict(momentum=0.8, dampening=0.3),
               dict(weight_decay=0.05), dict(momentum=0.5, weight_decay=0.01, maximize=True),
               dict(momentum=0.9, nesterov=True, weight_decay=1e-3)]:
    w = torch.tensor(vals(19, 7919, 337.0, 1.3), requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.03, **kwargs)
    for step in range(6):
        opt.zero_grad()
        loss = ((w - target) ** 2 * torch.arange(1.0, 20.0)).sum()
        loss.backward()
        opt.step()
    print(kwargs, repr(loss.item()), w.tolist())
    if 'momentum' in kwargs:
        print(opt.state[w]['momentum_buffer'].tolist())
