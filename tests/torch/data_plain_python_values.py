import torch
import numpy as np
from torch.utils.data import DataLoader, Dataset, TensorDataset
print(list(DataLoader(range(7), batch_size=3)))
print(list(DataLoader([(1, 2.0), (3, 4.0), (5, 6.0)], batch_size=2)))
print(list(DataLoader([[1, 2], [3, 4]], batch_size=2)))
print(list(DataLoader(['a', 'b', 'c'], batch_size=2)))
print(list(DataLoader([{'x': np.float32(1.5), 'y': np.array([1, 2])}, {'x': np.float32(2.5), 'y': np.array([3, 4])}], batch_size=2)))
print(list(DataLoader([np.array([1.0, 2.0]), np.array([3.0, 4.0])], batch_size=None)))
print(list(DataLoader([(torch.ones(2), 1), (torch.zeros(2), 0)], batch_size=2)))
print(list(DataLoader([True, False, True], batch_size=2)))
print(list(DataLoader([(np.int64(1), 'cat'), (np.int64(2), 'dog')], batch_size=2)))
class Pairs(Dataset):
    def __init__(self):
        self.x = np.arange(12, dtype=np.float32).reshape(6, 2)
        self.y = np.array([0, 1, 0, 1, 1, 0])
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return self.x[i], self.y[i]
dl = DataLoader(Pairs(), batch_size=4)
for i, (xb, yb) in enumerate(dl):
    print(i, xb, yb, xb.dtype, yb.dtype)
xb, yb = next(iter(dl))
print(xb.shape, len(dl))
ds = TensorDataset(torch.arange(6.).unsqueeze(1), torch.arange(6))
print(ds[2], ds[1:3])
print(list(DataLoader(ds, batch_size=4, collate_fn=lambda b: torch.stack([x for x, _ in b]))))
try:
    list(DataLoader([[1, 2], [3]], batch_size=2))
except RuntimeError as e:
    print('RuntimeError:', e)
try:
    list(DataLoader([object(), object()], batch_size=2))
except TypeError as e:
    print('TypeError:', str(e)[:60])
