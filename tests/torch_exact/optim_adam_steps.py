import torch

def vals(n, k, s, off):
    return [((i * k) % 1009) / s - off for i in range(n)]

# parameters of 5, 17 and 40 elements (vector loop and scalar tail), every step printed
ws = [torch.tensor(vals(n, 7919, 337.0, 1.3), requires_grad=True) for n in [5, 17, 40]]
ts = [torch.tensor(vals(n, 104729, 211.0, 2.1)) for n in [5, 17, 40]]
opt = torch.optim.Adam(ws, lr=0.02)
for step in range(8):
    opt.zero_grad()
    loss = sum(((w - t) ** 2).sum() for w, t in zip(ws, ts))
    loss.backward()
    opt.step()
    print(step, repr(loss.item()))
    for w in ws:
        print(w.tolist())
st = opt.state[ws[1]]
print(st['step'], st['exp_avg'].tolist(), st['exp_avg_sq'].tolist())
