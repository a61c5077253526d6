import torch
# a convolution goes through im2col + GEMM or oneDNN: its summation order is the library's
import torch.nn as nn

conv = nn.Conv2d(1, 2, 3)
with torch.no_grad():
    conv.weight.copy_(torch.linspace(-0.4, 0.4, 18).reshape(2, 1, 3, 3))
    conv.bias.copy_(torch.tensor([0.1, -0.1]))
x = (torch.arange(36, dtype=torch.float32) * 0.29).cos().reshape(1, 1, 6, 6)
y = conv(x)
print(y.tolist())
print(nn.functional.max_pool2d(y, 2).tolist())
print(nn.functional.avg_pool2d(x, 2).tolist())
print(nn.functional.adaptive_avg_pool2d(x, 1).item())
