import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(2, 1, 28, 28)
conv1 = nn.Conv2d(1, 6, 5)
conv2 = nn.Conv2d(6, 16, 3, padding=1)
conv3 = nn.Conv2d(16, 8, 3, stride=2)
print(conv1)
print(conv2)
print(conv3)
y = conv1(x)
print(y.shape)
y = conv2(y)
print(y.shape)
y = conv3(y)
print(y.shape)
print(conv1.weight.shape, conv1.bias.shape)
