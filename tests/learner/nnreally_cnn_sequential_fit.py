import torch
from torch import nn, optim
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
train_ds = TensorDataset(torch.rand(24, 1, 8, 8), torch.randint(0, 3, (24,)))
train_dl = DataLoader(train_ds, batch_size=8, shuffle=True)
model = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(4, 3, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(2):
    for xb, yb in train_dl:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(epoch, loss.item())
