import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
net = nn.Linear(3, 1)
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
x = torch.randn(4, 3)
loss = net(x).pow(2).mean()
loss.backward()
optimizer.step()

EPOCH = 5
PATH = "model.pt"
torch.save({
    'epoch': EPOCH,
    'model_state_dict': net.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'loss': loss,
}, PATH)

model = nn.Linear(3, 1)
opt2 = optim.SGD(model.parameters(), lr=0.1)
checkpoint = torch.load(PATH, weights_only=True)
model.load_state_dict(checkpoint['model_state_dict'])
opt2.load_state_dict(checkpoint['optimizer_state_dict'])
print(checkpoint['epoch'], checkpoint['loss'])
print(opt2.param_groups[0]['lr'], opt2.param_groups[0]['momentum'])
print(torch.equal(model.weight, net.weight))
model.train()
