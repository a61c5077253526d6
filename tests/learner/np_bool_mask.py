import numpy as np
import torch

a = np.array([3, -1, 4, -1, 5])
mask = a > 0
print(mask, mask.dtype)
print(a[mask])
print(mask.sum(), mask.mean())
t = torch.from_numpy(mask)
print(t, t.dtype)
print(torch.tensor(a)[t])
