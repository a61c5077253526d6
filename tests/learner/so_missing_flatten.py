import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 4, 3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Linear(4 * 4 * 4, 10),
)
x = torch.randn(2, 1, 8, 8)
print(model(x).shape)
