import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
X = torch.rand(64, 1, 28, 28)
y = torch.randint(0, 10, (64,))
for epoch in range(3):
    y_hat = net(X)
    l = loss(y_hat, y)
    trainer.zero_grad()
    l.mean().backward()
    trainer.step()
    print(epoch + 1, float(l.sum()), float((y_hat.argmax(1) == y).sum()))
