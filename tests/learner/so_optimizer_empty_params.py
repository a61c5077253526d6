import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(2, 2), nn.Linear(2, 1)]  # a plain list: not registered

    def forward(self, x):
        for l in self.layers:
            x = l(x)
        return x


net = Net()
print(len(list(net.parameters())))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
