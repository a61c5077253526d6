import torch
x = torch.arange(6)
v = x.view(2, 3)
v[0, 0] = 100
print(x)
c = x.clone().view(2, 3)
c[1, 1] = -1
print(x)
s = x[1:3]
s[0] = 42
print(x)
