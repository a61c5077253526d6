import torch

ts = [torch.tensor(v) for v in [3.0, -1.0, 2.5, -4.0]]
print(list(map(lambda t: t.item(), ts)))
print(list(filter(lambda t: t > 0, ts)))
print(sorted(ts, key=lambda t: abs(t.item())))
print(sum(map(float, ts)))
