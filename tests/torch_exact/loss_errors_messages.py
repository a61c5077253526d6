import torch
import torch.nn.functional as F

x = torch.tensor([0.2, 0.5, 1.2])
y = torch.tensor([0.0, 1.0, 1.0])
for f in [lambda: F.binary_cross_entropy(x, y),
          lambda: F.binary_cross_entropy(torch.tensor([0.2, 0.4]), y),
          lambda: F.smooth_l1_loss(x, y, beta=-1.0),
          lambda: F.huber_loss(x, y, delta=0.0),
          lambda: F.silu(torch.tensor([1, 2, 3])),
          lambda: F.hardtanh(x, 2.0, 1.0)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
print(F.hardtanh(torch.tensor([-3, 0, 4]), -1, 2))
