import torch
from torch.utils.data import TensorDataset, random_split

ds = TensorDataset(torch.arange(10))
train_ds, val_ds = random_split(ds, [8, 2], generator=torch.Generator().manual_seed(42))
print(len(train_ds), len(val_ds))
print(train_ds.indices)
print(val_ds.indices)
print(val_ds[0])
