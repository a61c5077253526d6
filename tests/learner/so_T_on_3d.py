import torch

x = torch.arange(24).reshape(2, 3, 4)
print(x.transpose(1, 2).shape)
print(x.mT.shape)
print(x.permute(2, 1, 0).shape)
print(x.T.shape)
