import torch
from torch import nn

dropout1, dropout2 = 0.2, 0.5
torch.manual_seed(0)
net = nn.Sequential(nn.Flatten(),
        nn.Linear(784, 32),
        nn.ReLU(),
        # 在第一个全连接层之后添加一个dropout层
        nn.Dropout(dropout1),
        nn.Linear(32, 16),
        nn.ReLU(),
        # 在第二个全连接层之后添加一个dropout层
        nn.Dropout(dropout2),
        nn.Linear(16, 10))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
X = torch.rand(4, 1, 28, 28)
out = net(X)
print(out.shape)
print(out[0])
net.eval()
print(net(X)[0])
