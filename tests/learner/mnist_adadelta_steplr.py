import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR

torch.manual_seed(0)
model = nn.Linear(10, 2)
optimizer = optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
x = torch.randn(8, 10)
y = torch.randint(0, 2, (8,))
for epoch in range(1, 5):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    print(epoch, round(loss.item(), 5), scheduler.get_last_lr())
    scheduler.step()
print(optimizer.param_groups[0]["lr"])
