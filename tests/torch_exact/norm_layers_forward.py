import torch
import torch.nn as nn

x = (torch.arange(24, dtype=torch.float32) * 0.43).sin().reshape(4, 6) * 2 + 1
ln = nn.LayerNorm(6)
print(ln(x).tolist())
bn = nn.BatchNorm1d(6)
print(bn(x).tolist())
print(bn.running_mean.tolist())
print(bn.running_var.tolist())
bn.eval()
print(bn(x)[0].tolist())
