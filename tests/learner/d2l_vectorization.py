import torch

n = 1000
a = torch.ones([n])
b = torch.ones([n])
c = torch.zeros(n)
for i in range(n):
    c[i] = a[i] + b[i]
d = a + b
print(torch.equal(c, d))
print(c[:5], d.sum())
