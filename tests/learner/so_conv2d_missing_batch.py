import torch
import torch.nn as nn

torch.manual_seed(0)
conv = nn.Conv2d(1, 4, 3)
img = torch.rand(28, 28)
print(conv(img.unsqueeze(0)).shape)
print(conv(img.unsqueeze(0).unsqueeze(0)).shape)
print(conv(img).shape)
