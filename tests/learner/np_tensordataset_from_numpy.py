import numpy as np
import torch
from torch.utils.data import TensorDataset, DataLoader

np.random.seed(0)
X = np.random.randn(8, 2)
y = (X[:, 0] > 0).astype(np.int64)
ds = TensorDataset(torch.from_numpy(X).float(), torch.from_numpy(y))
for xb, yb in DataLoader(ds, batch_size=4):
    print(xb.dtype, yb.dtype, yb)
print(ds[0])
