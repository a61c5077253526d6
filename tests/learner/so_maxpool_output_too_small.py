import torch
import torch.nn as nn

torch.manual_seed(0)
features = nn.Sequential(
    nn.Conv2d(1, 16, 3), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 16, 3), nn.ReLU(), nn.MaxPool2d(2),
)
print(features(torch.randn(1, 1, 16, 16)).shape)
print(features(torch.randn(1, 1, 8, 8)).shape)
