# Lazy modules: built without their input size, which the first forward fills in
import torch
import torch.nn as nn

torch.manual_seed(0)
fc = nn.LazyLinear(3)
print(fc)
print(fc.weight)
print(isinstance(fc.weight, torch.Tensor), isinstance(fc.weight, nn.Parameter), type(fc.weight).__name__)
print(fc.weight.dtype, fc.weight.requires_grad)
print(fc.state_dict())
try:
    fc.weight.shape
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    fc.weight.sum()
except ValueError as e:
    print("ValueError:", e)
out = fc(torch.ones(2, 5))
print(fc)
print(tuple(out.shape), tuple(fc.weight.shape), type(fc.weight).__name__)

conv = nn.LazyConv2d(8, 3, padding=1)
print(conv)
print(tuple(conv(torch.ones(1, 3, 6, 6)).shape), conv)
up = nn.LazyConvTranspose1d(2, 4, stride=2)
print(up, up.bias)
print(tuple(up(torch.ones(3, 7)).shape), tuple(up.weight.shape), up)
bn = nn.LazyBatchNorm1d()
print(bn.running_mean, type(bn.running_mean).__name__)
print(list(bn.state_dict().keys()))
bn(torch.ones(4, 6))
print(bn, tuple(bn.running_mean.shape))
d = nn.LazyConv3d(2, 2).double()
print(d.weight.dtype)
print(d(torch.ones(1, 1, 3, 3, 3, dtype=torch.float64)).dtype)
nn.LazyLinear(2).state_dict()["weight"].shape
