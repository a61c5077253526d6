import numpy as np
import torch

a = np.array([1, 2, 3])
t = torch.tensor(a)
a[0] = 99
print(t)
u = torch.as_tensor(a)
a[1] = 77
print(u)
print(t.dtype, u.dtype)
