import torch

x = torch.arange(12)
print(x.view(3, 4).shape)
print(x.view(-1, 6).shape)
print(x.view(3, 5))
