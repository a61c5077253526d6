import torch
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
ds = TensorDataset(torch.randn(10, 3), torch.zeros(10))
a = DataLoader(ds, batch_size=4)
b = DataLoader(ds, batch_size=4, drop_last=True)
print(len(a), len(b))
print([xb.shape[0] for xb, _ in a])
print([xb.shape[0] for xb, _ in b])
print(len(a.dataset))
