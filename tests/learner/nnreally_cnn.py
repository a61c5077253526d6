import torch
from torch import nn, optim
import torch.nn.functional as F


class Mnist_CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1)
        self.conv3 = nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1)

    def forward(self, xb):
        xb = xb.view(-1, 1, 28, 28)
        xb = F.relu(self.conv1(xb))
        xb = F.relu(self.conv2(xb))
        xb = F.relu(self.conv3(xb))
        xb = F.avg_pool2d(xb, 4)
        return xb.view(-1, xb.size(1))


torch.manual_seed(0)
x_train = torch.rand(16, 784)
y_train = torch.randint(0, 10, (16,))
lr = 0.1
model = Mnist_CNN()
opt = optim.SGD(model.parameters(), lr=lr, momentum=0.9)
for step in range(3):
    loss = F.cross_entropy(model(x_train), y_train)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(step, loss.item())
print(model(x_train[:2]).shape)
