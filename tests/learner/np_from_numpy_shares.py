import numpy as np
import torch

a = np.array([1.0, 2.0, 3.0])
t = torch.from_numpy(a)
print(t)
a[0] = 100.0
print(t)
t[1] = -5.0
print(a)
t.mul_(2)
print(a)
print(t.dtype)
