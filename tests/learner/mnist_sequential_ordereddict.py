from collections import OrderedDict
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(OrderedDict([
    ('fc1', nn.Linear(784, 32)),
    ('relu1', nn.ReLU()),
    ('fc2', nn.Linear(32, 10)),
    ('output', nn.LogSoftmax(dim=1)),
]))
print(model)
print(model.fc1)
print(model[0] is model.fc1)
out = model(torch.rand(2, 784))
print(out.exp().sum(1))
print(list(model.state_dict().keys()))
