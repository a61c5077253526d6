import torch
import torch.nn as nn

torch.manual_seed(0)
conv1 = nn.Conv2d(3, 6, 5)
gray = torch.randn(1, 1, 32, 32)
print(conv1(gray.repeat(1, 3, 1, 1)).shape)
print(conv1(gray).shape)
