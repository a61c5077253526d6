import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=0.01)
x = torch.randn(16, 2)
y = x @ torch.tensor([[1.5], [-0.5]]) + 0.3
for epoch in range(6):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    print(f"{epoch} {loss.item():.5f} {sched.get_last_lr()[0]:.5f}")
