import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(2, 3, 10)
conv = nn.Conv1d(3, 4, kernel_size=3, padding=1)
print(conv)
y = conv(x)
print(y.shape)
print(nn.MaxPool1d(2)(y).shape)
print(nn.AvgPool1d(3, stride=2)(y).shape)
print(nn.AdaptiveMaxPool1d(1)(y).squeeze(-1).shape)
print(nn.functional.max_pool1d(torch.arange(8.0).view(1, 1, 8), 2))
