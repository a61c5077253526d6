# nn.LPPool2d / F.lp_pool2d with a square kernel, a (kH, kW) pair and an odd kernel: the kernel
# size is read as a pair, each window sums |x|**p and takes the p-th root.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = (torch.arange(36, dtype=torch.float32).reshape(1, 1, 6, 6) - 17.5) / 7
for p, k in [(2, 2), (2, (2, 3)), (2, 3), (1, (3, 2)), (3.0, 2)]:
    y = nn.LPPool2d(p, k)(x)
    print(p, k, tuple(y.shape))
    print(y)
print(F.lp_pool2d(x, 2, (3, 3), stride=(1, 2)))
print(F.lp_pool2d(x, 2, 4, ceil_mode=True).shape)
