import numpy as np
import torch

a = np.zeros((4, 3, 2))
print(a.shape[0], len(a), a.shape[-1])
print(a.reshape(4, -1).shape)
print(np.transpose(a, (2, 0, 1)).shape)
t = torch.from_numpy(a)
print(t.shape, tuple(t.shape) == a.shape)
print(list(t.size()))
print(a.size, t.numel())
