import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
print(model)
print(sum(p.numel() for p in model.parameters()))
print(model(torch.zeros(3, 784)).shape)
print(len(model), type(model[1]).__name__)
print([name for name, _ in model.named_parameters()])
