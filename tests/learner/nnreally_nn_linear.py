import torch
from torch import nn
import torch.nn.functional as F


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


torch.manual_seed(0)
x_train = torch.rand(64, 784)
y_train = torch.randint(0, 10, (64,))
model = Mnist_Logistic()
loss_func = F.cross_entropy
print(loss_func(model(x_train), y_train))
print(model.lin.weight.shape)
print(model)
