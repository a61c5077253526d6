# torch.return_types are struct sequences: tuple subclasses that unpack, index, slice, compare
# and count as the tuple of their fields
import torch

x = torch.tensor([[1., 5.], [3., 2.]])
r = torch.max(x, 0)
print(type(r), type(r).__name__, isinstance(r, tuple), len(r))
print(r)
values, indices = r
print(values, indices, r.values is r[0], r.indices is r[-1], r[:1])
t = (r[0], r[1])
print(r == r, r != t, r[0] in r, list(r) == [values, indices])
s = torch.sort(torch.tensor([3, 1, 2]), descending=True)
print(s, s.values.tolist(), s[1].tolist())
k = torch.topk(torch.tensor([3., 1., 2.]), 2)
v, i = k
print(v, i, len(k), k.indices.tolist())
m = torch.min(torch.tensor([[4, 2], [1, 3]]), dim=1, keepdim=True)
print(m)
try:
    torch.sort(torch.tensor([3, 1, 2])) == torch.sort(torch.tensor([3, 1, 2]))
except RuntimeError as e:
    print('RuntimeError', e)
