import torch
print(torch.cat([torch.zeros(2)]).shape)
torch.cat([])
