import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Flatten(),
                    nn.Linear(784, 256),
                    nn.ReLU(),
                    nn.Linear(256, 10))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
batch_size, lr, num_epochs = 32, 0.1, 3
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=lr)
X = torch.rand(batch_size, 1, 28, 28)
y = torch.randint(0, 10, (batch_size,))
for epoch in range(num_epochs):
    l = loss(net(X), y)
    trainer.zero_grad()
    l.mean().backward()
    trainer.step()
    print(f"epoch {epoch + 1}: {l.mean():.6f}")
print(net)
