# max/min/argmax/argmin over one dimension of float32: the first index of the extreme wins,
# the first NaN wins over everything, 0.0 and -0.0 tie (the first one is returned, sign kept),
# along contiguous and strided dimensions, rows longer than one vector, transposed and sliced
# views, and 3-d tensors reduced over each dimension.
import torch

nan = float("nan")
x = torch.tensor([
    [1.0, 3.0, 3.0, -2.0, 0.5, 3.0, 2.0, 1.0, 0.0, -1.0, 2.5, 3.0, 1.0, 1.5, 0.25, -3.0, 2.0, 3.0],
    [-0.0, 0.0, -1.0, -0.0, -2.0, -3.0, -0.5, -4.0, -5.0, -6.0, -7.0, -8.0, -9.0, -1.0, -2.0, -3.0, -4.0, -5.0],
    [0.0, -0.0, nan, 5.0, nan, 1.0, 9.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 1.0, 2.0, 3.0],
    [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, nan],
])
for d in (0, 1):
    v, i = x.max(dim=d)
    print("max", d, v.tolist(), i.tolist(), [str(t) for t in v.tolist()])
    v, i = x.min(dim=d)
    print("min", d, v.tolist(), i.tolist(), [str(t) for t in v.tolist()])
    print("argmax", d, x.argmax(dim=d).tolist(), "argmin", x.argmin(dim=d).tolist())
    print("amax", d, x.amax(dim=d).tolist(), "amin", x.amin(dim=d).tolist())
t = x.t()
for d in (0, 1):
    v, i = t.max(dim=d)
    print("t max", d, v.tolist(), i.tolist())
    v, i = t.min(dim=d, keepdim=True)
    print("t min keepdim", d, v.tolist(), i.tolist())
s = x[:, 1::3]
print("sliced", s.max(dim=1)[1].tolist(), s.max(dim=0)[1].tolist(), s.argmin(dim=0).tolist())
# integer values with many ties (the first index must win), no random stream
y = ((torch.arange(600) * 7919) % 613).float().reshape(3, 40, 5)
y[1, 7, 2] = nan
y[2, 3, 0] = y[2, 30, 0] = 9.0
for d in (0, 1, 2):
    v, i = y.max(dim=d)
    w, j = y.min(dim=d)
    print("3d", d, i.tolist(), j.tolist(), v.tolist(), w.tolist())
print(y.max(dim=-1, keepdim=True)[1].shape, y[:, ::2, :].max(dim=1)[1].tolist())
z = torch.arange(12.0).reshape(3, 4).expand(2, 3, 4)
print(z.max(dim=0)[1].tolist(), z.max(dim=2)[1].tolist())
print(torch.tensor([[5.0]]).max(dim=1), torch.tensor(3.0).max(dim=0))
