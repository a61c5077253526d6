import torch

x = torch.arange(6).view(2, 3)
y = x.t()
print(y.is_contiguous(), x.is_contiguous())
y[0, 1] = 100
print(x)
z = y.contiguous()
z[0, 0] = -1
print(x)
print(x.stride(), y.stride())
print(x.storage_offset(), x[1].storage_offset())
