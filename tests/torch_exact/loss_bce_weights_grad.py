import torch
import torch.nn.functional as F

p = torch.sigmoid(torch.linspace(-5.0, 5.0, 40)).reshape(8, 5)
y = (torch.arange(40).reshape(8, 5) % 3 == 0).float()
w = torch.linspace(0.2, 2.0, 5)
for red in ['mean', 'sum', 'none']:
    x = p.clone().requires_grad_(True)
    loss = F.binary_cross_entropy(x, y, weight=w.expand(8, 5), reduction=red)
    loss.sum().backward() if red == 'none' else loss.backward()
    print(red, type(loss.grad_fn).__name__)
    print(loss.tolist())
    print(x.grad.tolist())
print(repr(torch.nn.BCELoss()(p, y).item()))
