import torch
from torch.optim.lr_scheduler import CosineAnnealingLR

model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = CosineAnnealingLR(optimizer, T_max=5)
for epoch in range(7):
    optimizer.step()
    print(epoch, scheduler.get_last_lr()[0])
    scheduler.step()
