import torch

tensor = torch.ones(4, 4)
tensor[:, 1] = 0
t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)
print(t1.shape)
t2 = torch.cat([tensor, tensor], dim=0)
print(t2.shape)
