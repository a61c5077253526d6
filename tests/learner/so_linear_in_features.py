import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 5), nn.ReLU(), nn.Linear(5, 1))
x = torch.randn(3, 8)
print("input:", x.shape)
out = model(x)
print(out)
