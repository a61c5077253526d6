import torch
x = torch.arange(12)
print(x.reshape(3, 4).shape)
x.reshape(5, -1)
