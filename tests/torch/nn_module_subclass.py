import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 5)
        self.fc2 = nn.Linear(5, 2)
    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
net = Net()
print(net)
print(net(torch.zeros(4, 10)).shape)
print([p.shape for p in net.parameters()])
print(net.training)
net.eval()
print(net.training)
