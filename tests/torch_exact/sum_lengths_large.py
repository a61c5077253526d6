import torch

for n in [127, 128, 129, 1000, 1023, 1024, 4096, 10000, 65536, 100000]:
    x = torch.arange(n, dtype=torch.float32) * 0.001 - 0.7
    print(n, repr(x.sum().item()), repr(x.mean().item()))
