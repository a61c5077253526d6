import torch
x = torch.arange(6)
print(x.view(-1, 3).shape)
x.view(-1, -1)
