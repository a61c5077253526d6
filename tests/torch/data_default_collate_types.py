import torch
from torch.utils.data import default_collate, default_convert, DataLoader, Dataset
from collections import namedtuple
import numpy as np
print(default_collate([1, 2, 3]))
print(default_collate([1.5, 2.0]))
print(default_collate([True, False]))
print(default_collate(['a', 'b']))
print(default_collate([(1, 2.0), (3, 4.0)]))
print(default_collate([[1, 2], [3, 4]]))
print(default_collate([{'x': 1, 'y': [1.0, 2.0]}, {'x': 2, 'y': [3.0, 4.0]}]))
P = namedtuple('P', ['a', 'b'])
print(default_collate([P(1, torch.tensor([1.0])), P(2, torch.tensor([2.0]))]))
print(default_collate([np.array([1, 2]), np.array([3, 4])]))
print(default_collate([np.float32(1.5), np.float32(2.5)]))
print(default_collate([np.int64(3), np.int64(4)]))
print(default_collate([torch.tensor(1), torch.tensor(2)]))
print(default_convert([1, 2]), default_convert((1, 'a')), default_convert(np.array([1.0, 2.0])))
print(default_convert({'a': np.array([1])}))
try:
    default_collate([[1, 2], [3]])
except RuntimeError as e:
    print('RuntimeError', e)
try:
    default_collate([None, None])
except TypeError as e:
    print('TypeError', e)
class D(Dataset):
    def __len__(self):
        return 5
    def __getitem__(self, i):
        return {'id': i, 'val': float(i) / 2, 'name': f'n{i}', 'vec': [i, i + 1]}
for b in DataLoader(D(), batch_size=2):
    print(b)
for b in DataLoader(D(), batch_size=None):
    print(b)
    break
for b in DataLoader(D(), batch_size=2, collate_fn=lambda x: x):
    print(b)
    break
class Obj:
    pass
class D2(Dataset):
    def __len__(self):
        return 2
    def __getitem__(self, i):
        return Obj()
try:
    next(iter(DataLoader(D2(), batch_size=2)))
except TypeError as e:
    print('TypeError', str(e).split("'")[0])
