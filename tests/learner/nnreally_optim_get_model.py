import torch
from torch import nn, optim
import torch.nn.functional as F

torch.manual_seed(0)
n, bs, lr, epochs = 96, 32, 0.5, 2
x_train = torch.rand(n, 784)
y_train = torch.randint(0, 10, (n,))
loss_func = F.cross_entropy


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


def get_model():
    model = Mnist_Logistic()
    return model, optim.SGD(model.parameters(), lr=lr)


model, opt = get_model()
print(loss_func(model(x_train[:bs]), y_train[:bs]))

for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        opt.step()
        opt.zero_grad()

print(loss_func(model(x_train[:bs]), y_train[:bs]))
