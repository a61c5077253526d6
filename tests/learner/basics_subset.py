import torch
from torch.utils.data import TensorDataset, Subset, DataLoader

ds = TensorDataset(torch.arange(10) * 10, torch.arange(10))
sub = Subset(ds, [1, 3, 5, 7])
print(len(sub))
print(sub[2])
for x, y in DataLoader(sub, batch_size=3):
    print(x, y)
