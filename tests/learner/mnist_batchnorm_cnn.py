import torch
import torch.nn as nn

torch.manual_seed(0)
block = nn.Sequential(nn.Conv2d(1, 3, 3, padding=1), nn.BatchNorm2d(3), nn.ReLU())
x = torch.randn(4, 1, 5, 5)
print(block[1])
print(block[1].running_mean, block[1].running_var)
out = block(x)
print(out.shape)
print(block[1].running_mean)
print(block[1].num_batches_tracked)
block.eval()
out2 = block(x)
print(out2[0, 0, 0])
