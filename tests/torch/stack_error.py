import torch
print(torch.stack([torch.zeros(3), torch.ones(3)]).shape)
torch.stack([torch.zeros(3), torch.zeros(2)])
