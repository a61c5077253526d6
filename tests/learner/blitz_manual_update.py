import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
input = torch.randn(2, 4)
target = torch.randn(2, 2)
criterion = nn.MSELoss()
loss = criterion(net(input), target)
net.zero_grad()
loss.backward()

learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)

print(criterion(net(input), target))
print(net[2].bias)
