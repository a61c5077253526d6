import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def foward(self, x):
        return self.fc(x)


net = Net()
print(net)
out = net(torch.zeros(1, 4))
print(out)
