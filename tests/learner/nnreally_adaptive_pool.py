import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(4, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
)
for size in (28, 20, 9):
    x = torch.rand(2, 1, size, size)
    print(size, model(x).shape)
print(nn.AdaptiveAvgPool2d((2, 3))(torch.arange(36.).view(1, 6, 6)))
