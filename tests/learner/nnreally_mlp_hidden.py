import torch
from torch import nn
import torch.nn.functional as F


class Mnist_MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(784, 64)
        self.l2 = nn.Linear(64, 10)

    def forward(self, xb):
        return self.l2(F.relu(self.l1(xb)))


torch.manual_seed(0)
model = Mnist_MLP()
x = torch.rand(32, 784)
y = torch.randint(0, 10, (32,))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(4):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(i, f"{loss.item():.5f}")
print(model.l1.weight.grad.abs().sum() > 0)
