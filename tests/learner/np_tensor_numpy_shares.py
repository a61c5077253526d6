import torch

t = torch.arange(4, dtype=torch.float32)
n = t.numpy()
print(n, n.dtype)
n[0] = 42
print(t)
t += 1
print(n)
m = t.clone().numpy()
m[1] = -1
print(t)
