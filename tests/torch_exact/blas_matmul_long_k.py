import torch

# a long inner dimension: the BLAS's blocking decides the rounding
a = (torch.arange(2000, dtype=torch.float32) * 0.001).sin().reshape(2, 1000)
b = (torch.arange(2000, dtype=torch.float32) * 0.003).cos().reshape(1000, 2)
print((a @ b).tolist())
v = torch.full((1000,), 0.1)
print(repr(torch.dot(v, v).item()))
print(torch.mv(a, v).tolist())
