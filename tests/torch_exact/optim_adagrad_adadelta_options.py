import torch

def vals(n, k, s, off):
    return [((i * k) % 1009) / s - off for i in range(n)]

target = torch.tensor(vals(18, 104729, 211.0, 2.1))
for kwargs in [dict(), dict(lr_decay=0.1), dict(weight_decay=0.05), dict(initial_accumulator_value=0.5),
               dict(eps=1e-3, maximize=True)]:
    w = torch.tensor(vals(18, 7919, 337.0, 1.3), requires_grad=True)
    opt = torch.optim.Adagrad([w], lr=0.1, **kwargs)
    print(opt.state[w]['sum'].tolist()[:3])
    for step in range(6):
        opt.zero_grad()
        ((w - target) ** 2).sum().backward()
        opt.step()
    print('Adagrad', kwargs, w.tolist(), opt.state[w]['step'])
for kwargs in [dict(), dict(rho=0.5), dict(lr=0.5, eps=1e-4), dict(weight_decay=0.1), dict(maximize=True)]:
    w = torch.tensor(vals(18, 7919, 337.0, 1.3), requires_grad=True)
    opt = torch.optim.Adadelta([w], **kwargs)
    for step in range(6):
        opt.zero_grad()
        ((w - target) ** 2).sum().backward()
        opt.step()
    print('Adadelta', kwargs, w.tolist(), opt.state[w]['acc_delta'].tolist())
