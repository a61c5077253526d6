import torch

for n in [2, 3, 10, 33, 100, 1000, 10001]:
    x = (torch.arange(n, dtype=torch.float32) * 0.7).sin() * 3 + 1
    print(n, repr(x.var().item()), repr(x.std().item()), repr(x.var(unbiased=False).item()))
