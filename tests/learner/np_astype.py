import numpy as np
import torch

a = np.array([1.7, -2.2, 3.9])
print(a.astype(np.int64))
print(a.astype(np.float32))
print(a.astype(np.float32).dtype)
t = torch.from_numpy(a.astype(np.float32))
print(t)
print(np.round(a), np.floor(a), np.ceil(a))
