import torch

x = torch.zeros(3, 1, 4)
print(x.squeeze(0).shape)
print(x.squeeze(1).shape)
print(x.squeeze().shape)
print(x.unsqueeze(-1).shape)
print(x.squeeze(3).shape)
