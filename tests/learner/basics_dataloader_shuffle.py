import torch
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
x = torch.arange(10)
ds = TensorDataset(x)
loader = DataLoader(ds, batch_size=3, shuffle=True)
for epoch in range(2):
    print(f"epoch {epoch}")
    for (batch,) in loader:
        print(batch)
