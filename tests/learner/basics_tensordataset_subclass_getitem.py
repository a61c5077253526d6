# A TensorDataset subclass that changes each sample: the DataLoader must call its __getitem__
# (row by row, then stack), not index the stored tensors directly.
import torch
from torch.utils.data import TensorDataset, DataLoader


class Doubled(TensorDataset):
    def __getitem__(self, i):
        x, y = super().__getitem__(i)
        return x * 2, y


class Plain(TensorDataset):
    pass


features = torch.arange(10.).reshape(5, 2)
labels = torch.tensor([0, 1, 2, 1, 0])
for ds in (TensorDataset(features, labels), Doubled(features, labels), Plain(features, labels)):
    print(type(ds).__name__)
    for x, y in DataLoader(ds, batch_size=2):
        print(x, y, x.is_contiguous(), type(x).__name__)
