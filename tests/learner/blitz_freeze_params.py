import torch
from torch import nn, optim

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
model.fc = nn.Linear(16, 4)
for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(16, 10)
print([n for n, p in model.named_parameters() if p.requires_grad])
optimizer = optim.SGD(model.fc.parameters(), lr=1e-2, momentum=0.9)
x = torch.rand(2, 8)
x = model.fc(model[1](model[0](x)))
print(x.shape)
print(model[0].weight.requires_grad, model.fc.weight.requires_grad)
