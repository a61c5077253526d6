# out= of the functions torch._extra wraps (gather, aminmax, amax, amin, kthvalue, cat,
# masked_select, index_select, bernoulli, multinomial): results, return types and dtype refusals.
import torch
a = torch.arange(6.).reshape(2, 3)
o = torch.empty(0)
print(torch.cat([a, a], out=o), o.shape)
print(torch.amax(a, 1, out=torch.empty(2)))
mn, mx = torch.empty(0), torch.empty(0)
print(torch.aminmax(a, dim=0, out=(mn, mx)))
print(torch.kthvalue(a, 2, 1))
print(torch.masked_select(a, a > 2, out=torch.empty(0)))
print(torch.gather(a, 1, torch.tensor([[0], [2]]), out=torch.empty(2, 1)))
try:
    torch.amax(a, 1, out=torch.empty(2, dtype=torch.long))
except RuntimeError as e:
    print(e)
try:
    torch.multinomial(torch.ones(3), 2, out=torch.empty(2))
except RuntimeError as e:
    print(e)
print(torch.amin.__name__, torch.index_select(a, 0, torch.tensor([1]), out=torch.empty(0)))
