import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(4)
x = torch.randn(64, 2)
y = (x[:, 0] + x[:, 1] > 0).long()
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.5)


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


print("before:", F.cross_entropy(model(x), y).item(), accuracy(model(x), y).item())
for _ in range(20):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("after:", F.cross_entropy(model(x), y).item(), accuracy(model(x), y).item())
