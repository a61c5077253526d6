import torch
from torch.utils.data import TensorDataset, DataLoader
xs = torch.arange(10.).view(10, 1)
ys = torch.arange(10)
ds = TensorDataset(xs, ys)
print(len(ds), ds[3])
loader = DataLoader(ds, batch_size=4)
print(len(loader))
for bx, by in loader:
    print(bx.shape, by.shape, by.tolist())
