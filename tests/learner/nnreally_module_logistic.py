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
model = Mnist_Logistic()
x_train = torch.rand(50, 784)
y_train = torch.randint(0, 10, (50,))
loss_func = F.cross_entropy
print(loss_func(model(x_train), y_train))
print([name for name, p in model.named_parameters()])
print(model)
