import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 2 * 2, 3))
PATH = './cifar_net.pth'
torch.save(net.state_dict(), PATH)

net2 = nn.Sequential(nn.Conv2d(3, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 2 * 2, 3))
print(net2.load_state_dict(torch.load(PATH, weights_only=True)))
images = torch.randn(2, 3, 4, 4)
print(torch.equal(net(images), net2(images)))
print(net2(images))
