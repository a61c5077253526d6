import numpy as np
import torch

a = np.arange(6)
print(torch.from_numpy(a[::2]))
flipped = a[::-1]
print(flipped)
print(torch.from_numpy(flipped.copy()))
print(torch.from_numpy(flipped))
