import torch

for n in [10, 100, 1000, 10000, 100000, 1000000]:
    x = torch.full((n,), 0.1)
    print(n, repr(x.sum().item()))
y = torch.ones(12345) / 3
print(repr(y.sum().item()), repr(y.mean().item()))
