import torch
import torch.nn.functional as F

z = torch.linspace(-6.0, 6.0, 42).reshape(6, 7)
y = (torch.arange(42).reshape(6, 7) % 4 == 1).float()
pw = torch.linspace(0.5, 3.0, 7)
w = torch.linspace(1.0, 0.1, 6).reshape(6, 1)
for kw in [{}, {'pos_weight': pw}, {'weight': w}, {'pos_weight': pw, 'weight': w, 'reduction': 'sum'},
           {'reduction': 'none'}]:
    x = z.clone().requires_grad_(True)
    loss = F.binary_cross_entropy_with_logits(x, y, **kw)
    (loss * 1.0).sum().backward()
    print(sorted(kw), type(loss.grad_fn).__name__)
    print(loss.tolist())
    print(x.grad.tolist())
crit = torch.nn.BCEWithLogitsLoss(pos_weight=pw)
print(repr(crit(z, y).item()))
