import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(3)
net = nn.Sequential(nn.Linear(5, 5), nn.Sigmoid(), nn.Linear(5, 1))
input = torch.randn(4, 5)
target = torch.randn(4, 1)
criterion = nn.MSELoss()
# create your optimizer
optimizer = optim.SGD(net.parameters(), lr=0.01)

for i in range(3):
    # in your training loop:
    optimizer.zero_grad()   # zero the gradient buffers
    output = net(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()    # Does the update
    print(i, loss.item())
