import torch
x = torch.arange(12)
print(x.view(3, 4))
print(x.reshape(2, -1).shape)
print(x.view(-1, 6).shape, x.view(2, 2, 3).shape)
print(x.view(3, 4).view(-1).shape)
print(x.view(3, 4).flatten())
print(torch.zeros(2, 3, 4).flatten(1).shape)
print(x.reshape(4, 3)[1])
