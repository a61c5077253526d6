import torch
from torch import nn, optim
from torch.utils.data import TensorDataset
import torch.nn.functional as F

torch.manual_seed(2)
n, bs = 60, 20
x_train = torch.rand(n, 16)
y_train = torch.randint(0, 4, (n,))
train_ds = TensorDataset(x_train, y_train)
model = nn.Linear(16, 4)
opt = optim.SGD(model.parameters(), lr=0.5)
loss_func = F.cross_entropy

for epoch in range(3):
    for i in range((n - 1) // bs + 1):
        xb, yb = train_ds[i * bs: i * bs + bs]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(epoch, round(loss.item(), 4))
xb, yb = train_ds[0:3]
print(xb.shape, yb)
