import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(2, 4)
ln = nn.LayerNorm(4)
print(ln)
print(ln(x))
print(nn.GELU()(x))
print(nn.SiLU()(x))
print(nn.functional.gelu(x, approximate='tanh'))
print(ln.weight, ln.bias)
