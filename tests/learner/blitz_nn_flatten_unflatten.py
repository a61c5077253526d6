import torch
import torch.nn as nn

x = torch.arange(24.0).view(2, 3, 4)
print(nn.Flatten()(x).shape)
print(nn.Flatten(0, 1)(x).shape)
print(nn.Unflatten(1, (3, 2, 2))(torch.zeros(2, 12)).shape)
print(nn.Flatten())
print(nn.Unflatten(1, (2, 6)))
print(torch.flatten(x, start_dim=1, end_dim=-1).shape)
print(x.unflatten(2, (2, 2)).shape)
