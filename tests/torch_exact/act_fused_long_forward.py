import torch
import torch.nn.functional as F

# 45 elements: the kernels' vector half (32) and scalar tail (13) both run
x = torch.linspace(-7.0, 7.0, 45) * 1.037 + 0.013
print(F.silu(x).tolist())
print(F.softplus(x).tolist())
print(F.softplus(x, beta=2.5, threshold=4.0).tolist())
print(F.elu(x, alpha=0.7).tolist())
print(F.selu(x).tolist())
print(F.celu(x, alpha=1.3).tolist())
print(F.leaky_relu(x, 0.03).tolist())
print(F.mish(x).tolist())
print(F.hardswish(x).tolist())
print(F.hardsigmoid(x).tolist())
print(F.hardtanh(x, -2.0, 1.5).tolist())
print(F.relu6(x).tolist())
print(F.logsigmoid(x).tolist())
