import torch

x = torch.arange(24).reshape(2, 3, 4)
print(x.mT.shape)
print(x.mT[0])
print(x.transpose(-2, -1).shape)
m = torch.arange(6).reshape(2, 3)
print(m.T, m.mT, m.H.shape)
print(torch.swapaxes(x, 0, 2).shape, x.movedim(0, -1).shape)
