import torch

x = torch.arange(12)
print(x.view(3, 4))
print(x.reshape(2, -1))
y = x.view(2, 2, 3)
print(y.shape)
print(y.permute(2, 0, 1).shape)
print(y.flatten())
print(y.flatten(1).shape)
z = torch.zeros(1, 3, 1)
print(z.squeeze().shape, z.squeeze(0).shape, z.unsqueeze(0).shape)
print(x.view(-1, 6).size(1))
