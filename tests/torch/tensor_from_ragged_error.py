import torch
print(torch.tensor([[1, 2], [3, 4]]).shape)
torch.tensor([[1, 2], [3]])
