import torch
a = torch.ones(4, 2, 3)
print((a @ torch.ones(3, 2)).shape)
a @ torch.ones(2, 3)
