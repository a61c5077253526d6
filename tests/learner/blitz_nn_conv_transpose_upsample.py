import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4)
up = nn.ConvTranspose2d(2, 3, kernel_size=2, stride=2)
print(up)
print(up(x).shape)
print(nn.Upsample(scale_factor=2, mode='nearest')(x).shape)
print(nn.functional.interpolate(torch.arange(4.0).view(1, 1, 2, 2), scale_factor=2))
print(nn.functional.pad(torch.ones(1, 2, 2), (1, 1)).shape)
