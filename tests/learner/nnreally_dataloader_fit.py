import torch
from torch import nn, optim
from torch.utils.data import TensorDataset, DataLoader
import torch.nn.functional as F

torch.manual_seed(0)
x_train = torch.rand(80, 12)
y_train = torch.randint(0, 3, (80,))
bs = 16
train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs)
model = nn.Linear(12, 3)
opt = optim.SGD(model.parameters(), lr=0.5)
loss_func = F.cross_entropy

for epoch in range(3):
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        opt.step()
        opt.zero_grad()
    print(epoch, loss)

print(loss_func(model(x_train), y_train))
