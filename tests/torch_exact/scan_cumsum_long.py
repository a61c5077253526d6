import torch

x = torch.full((1000,), 0.1)
c = x.cumsum(0)
print([repr(v) for v in c[[9, 99, 499, 999]].tolist()])
y = (torch.arange(300, dtype=torch.float32) * 0.7).sin()
print(y.cumsum(0)[-5:].tolist())
m = y.reshape(10, 30)
print(m.cumsum(dim=1)[:, -1].tolist())
print(m.cumsum(dim=0)[-1].tolist())
