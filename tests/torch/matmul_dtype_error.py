import torch
a = torch.randn(2, 2)
b = torch.ones(2, 2, dtype=torch.float64)
print(a.dtype, b.dtype)
a @ b
