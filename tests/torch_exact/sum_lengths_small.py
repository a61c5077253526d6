import torch

for n in [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100]:
    x = torch.arange(n, dtype=torch.float32) * 0.1 + 0.3
    print(n, repr(x.sum().item()))
