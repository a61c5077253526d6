import torch
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(0)
ds = TensorDataset(torch.arange(12.).reshape(6, 2), torch.arange(6))
dl = DataLoader(ds, batch_size=4, shuffle=True, num_workers=2)
for x, y in dl:
    print(x.tolist(), y.tolist())
dl = DataLoader(ds, batch_size=4, num_workers=2, persistent_workers=True)
print(len(dl))
for epoch in range(2):
    print([y.tolist() for _, y in dl])
print(torch.rand(2))
