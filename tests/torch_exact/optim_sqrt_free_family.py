import torch

def vals(n, k, s, off):
    return [((i * k) % 1009) / s - off for i in range(n)]

# the optimisers whose updates take no square root (so no MKL vsSqrt): every float32 bit of
# Adamax, ASGD (with averaging from t0=2), Rprop and SGD with Nesterov momentum and weight
# decay, on parameters of 5, 17 and 40 elements
def run(make, steps=6):
    ws = [torch.tensor(vals(n, 7919, 337.0, 1.3), requires_grad=True) for n in [5, 17, 40]]
    ts = [torch.tensor(vals(n, 104729, 211.0, 2.1)) for n in [5, 17, 40]]
    opt = make(ws)
    for step in range(steps):
        opt.zero_grad()
        loss = sum(((w - t) ** 2).sum() for w, t in zip(ws, ts))
        loss.backward()
        opt.step()
        print(step, repr(loss.item()))
    for w in ws:
        print(w.tolist())
    return opt

run(lambda p: torch.optim.Adamax(p, lr=0.05, weight_decay=0.01))
opt = run(lambda p: torch.optim.ASGD(p, lr=0.01, t0=2, lambd=0.001))
st = opt.state[opt.param_groups[0]['params'][1]]
print(st['eta'].item(), st['mu'].item(), st['ax'].tolist())
run(lambda p: torch.optim.Rprop(p, lr=0.02, etas=(0.4, 1.3)))
run(lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.8, nesterov=True, weight_decay=0.05))
