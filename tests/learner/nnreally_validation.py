import torch
from torch import nn, optim
from torch.utils.data import TensorDataset, DataLoader
import torch.nn.functional as F

torch.manual_seed(0)
bs = 16
x_train, y_train = torch.randn(64, 10), torch.randint(0, 2, (64,))
x_valid, y_valid = torch.randn(32, 10), torch.randint(0, 2, (32,))
train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs, shuffle=True)
valid_ds = TensorDataset(x_valid, y_valid)
valid_dl = DataLoader(valid_ds, batch_size=bs * 2)
model = nn.Linear(10, 2)
opt = optim.SGD(model.parameters(), lr=0.1)
loss_func = F.cross_entropy

for epoch in range(3):
    model.train()
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        opt.step()
        opt.zero_grad()

    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)

    print(epoch, valid_loss / len(valid_dl))
