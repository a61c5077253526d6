import numpy as np
import torch
from torch.utils.data import Dataset, DataLoader


class NumpyDataset(Dataset):
    def __init__(self):
        np.random.seed(1)
        self.x = np.random.rand(6, 2).astype(np.float32)
        self.y = np.arange(6)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


for xb, yb in DataLoader(NumpyDataset(), batch_size=4):
    print(xb, xb.dtype, yb, yb.dtype)

t = torch.ones(3)
a = np.array([1.0, 2.0, 3.0])
print(t + a, (t * a).dtype, t - a, torch.Tensor(a), torch.Tensor(a).dtype)
for f in [lambda: a + t, lambda: a * t]:
    try:
        f()
    except TypeError as e:
        print(e)
print(torch.tensor(a[::-1].copy()), t + a[::-1])
m = np.eye(3, dtype=np.float32)
print(torch.from_numpy(m) @ torch.ones(3))
import math
print(math.gamma(5), math.gamma(0.5), math.gamma(4.5))
