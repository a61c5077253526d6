import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


print("building model")
net = Net()
print(net)
