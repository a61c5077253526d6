import torch
from torch.utils.data import TensorDataset, DataLoader
ds = TensorDataset(torch.arange(7), torch.arange(7) * 10)
loader = DataLoader(ds, batch_size=3, drop_last=True)
print(len(loader))
for i, (a, b) in enumerate(loader):
    print(i, a, b)
first = next(iter(DataLoader(ds, batch_size=5)))
print(type(first).__name__, len(first), first[0].shape)
