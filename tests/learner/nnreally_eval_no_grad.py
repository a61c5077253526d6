import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.ReLU(), nn.Linear(8, 2))
x = torch.randn(3, 4)
model.eval()
with torch.no_grad():
    a = model(x)
    b = model(x)
print(torch.equal(a, b))
print(a.requires_grad)
print(a)
model.train()
c = model(x)
print(c.requires_grad)
