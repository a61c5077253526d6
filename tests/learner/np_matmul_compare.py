import numpy as np
import torch

a = np.arange(6, dtype=np.float32).reshape(2, 3)
b = np.arange(12, dtype=np.float32).reshape(3, 4)
c_np = np.matmul(a, b)
c_t = torch.from_numpy(a) @ torch.from_numpy(b)
print(c_np)
print(c_t)
print(np.array_equal(c_np, c_t.numpy()))
print(np.allclose(c_np, c_t.numpy()))
