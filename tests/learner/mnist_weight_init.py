import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(20, 10), nn.ReLU(), nn.Linear(10, 5))


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        nn.init.zeros_(m.bias)


model.apply(init_weights)
print(model[0].weight[0])
print(model[2].bias)
nn.init.kaiming_normal_(model[2].weight, nonlinearity='relu')
print(model[2].weight[0])
nn.init.constant_(model[0].bias, 0.1)
print(model[0].bias)
nn.init.normal_(model[2].bias, mean=0.0, std=0.01)
print(model[2].bias)
