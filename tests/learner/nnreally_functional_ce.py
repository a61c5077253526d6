import math
import torch
import torch.nn.functional as F

torch.manual_seed(1)
x_train = torch.rand(64, 784)
y_train = torch.randint(0, 10, (64,))
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)

loss_func = F.cross_entropy


def model(xb):
    return xb @ weights + bias


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


xb, yb = x_train[:32], y_train[:32]
print(loss_func(model(xb), yb), accuracy(model(xb), yb))
