import torch
import torch.nn.functional as F

x = torch.tensor([-3.0, -1.0, -0.5, -0.01, 0.0, 0.01, 0.5, 1.0, 3.0])
print(F.gelu(x).tolist())
print(F.gelu(x, approximate='tanh').tolist())
print(F.silu(x).tolist())
print(F.softplus(x).tolist())
print(F.elu(x).tolist())
print(F.leaky_relu(x, 0.01).tolist())
print(F.mish(x).tolist())
print(F.hardswish(x).tolist())
