import torch
import torch.nn as nn
import torch.nn.functional as F
w = torch.tensor([[0.5, -0.5], [0.25, 0.75]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
t = torch.tensor([0, 1, 1])
for name, mk in [("sgd", lambda ps: torch.optim.SGD(ps, lr=0.1)),
                 ("sgdm", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.01)),
                 ("adam", lambda ps: torch.optim.Adam(ps, lr=0.01)),
                 ("adamw", lambda ps: torch.optim.AdamW(ps, lr=0.01))]:
    w1 = w.detach().clone().requires_grad_()
    b1 = b.detach().clone().requires_grad_()
    opt = mk([w1, b1])
    for step in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(x @ w1 + b1, t)
        loss.backward()
        opt.step()
    print(name, round(loss.item(), 5), w1.detach(), b1.detach())
