import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU())
print(model(torch.randn(2, 3)).shape)
model.eval()
print(model(torch.randn(1, 3)).shape)
model.train()
print(model(torch.randn(1, 3)).shape)
