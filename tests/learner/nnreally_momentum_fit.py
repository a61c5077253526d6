import torch
from torch import nn, optim
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
ds = TensorDataset(torch.randn(48, 6), torch.randint(0, 2, (48,)))
dl = DataLoader(ds, batch_size=12, shuffle=True)
model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 2))
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(4):
    total = 0.0
    for xb, yb in dl:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
        total += loss.item() * len(xb)
    print(f"epoch {epoch}: {total / len(ds):.4f}")
