import torch
a = torch.zeros(2, 3)
b = torch.zeros(2, 2)
print(torch.cat([a, b], dim=1).shape)
torch.cat([a, b])
