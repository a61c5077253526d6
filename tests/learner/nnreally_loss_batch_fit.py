import numpy as np
import torch
from torch import nn, optim
from torch.utils.data import TensorDataset, DataLoader
import torch.nn.functional as F

torch.manual_seed(0)


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)

    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()

    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)

        model.eval()
        with torch.no_grad():
            losses, nums = zip(
                *[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl]
            )
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)

        print(epoch, val_loss)


def get_data(train_ds, valid_ds, bs):
    return (
        DataLoader(train_ds, batch_size=bs, shuffle=True),
        DataLoader(valid_ds, batch_size=bs * 2),
    )


train_ds = TensorDataset(torch.randn(60, 8), torch.randint(0, 3, (60,)))
valid_ds = TensorDataset(torch.randn(30, 8), torch.randint(0, 3, (30,)))
train_dl, valid_dl = get_data(train_ds, valid_ds, 10)
model = nn.Linear(8, 3)
fit(3, model, F.cross_entropy, optim.SGD(model.parameters(), lr=0.2), train_dl, valid_dl)
