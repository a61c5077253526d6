import torch

for n in [1, 3, 8, 17, 40]:
    x = 1.0 + torch.arange(n, dtype=torch.float32) * 0.01
    print(n, repr(x.prod().item()))
m = (1.0 + torch.arange(12, dtype=torch.float32) * 0.1).reshape(3, 4)
print(m.prod(dim=0).tolist(), m.prod(dim=1).tolist())
