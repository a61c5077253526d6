import torch

a = torch.zeros(3)
b = a
b[0] = 1.0
print(a)
c = a.clone()
c[1] = 2.0
print(a, c)
d = a[1:]
d += 5
print(a)
