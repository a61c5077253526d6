import math
import torch
from torch import nn
import torch.nn.functional as F


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(784, 10) / math.sqrt(784))
        self.bias = nn.Parameter(torch.zeros(10))

    def forward(self, xb):
        return xb @ self.weights + self.bias


torch.manual_seed(0)
n, bs, lr, epochs = 128, 32, 0.5, 2
x_train = torch.rand(n, 784)
y_train = torch.randint(0, 10, (n,))
model = Mnist_Logistic()
loss_func = F.cross_entropy


def fit():
    for epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            start_i = i * bs
            end_i = start_i + bs
            xb = x_train[start_i:end_i]
            yb = y_train[start_i:end_i]
            pred = model(xb)
            loss = loss_func(pred, yb)

            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()


print(loss_func(model(x_train[:bs]), y_train[:bs]))
fit()
print(loss_func(model(x_train[:bs]), y_train[:bs]))
