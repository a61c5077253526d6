import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
backbone = model[:4]
print(type(backbone).__name__)
print(backbone)
print(len(model), model[-1])
x = torch.randn(1, 4)
print(backbone(x).shape)
model.append(nn.Softmax(dim=1))
print(len(model), model(x).sum().item() > 0.99)
del model[5]
print(len(model))
