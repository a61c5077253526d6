import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.body(x))


net = Net()
for name, child in net.named_children():
    print(name, type(child).__name__)
print([name for name, _ in net.named_modules()])
print(len(list(net.modules())))
print(len(list(net.parameters())))
