import torch
a = torch.ones(3)
a += torch.ones(3)
print(a)
a += torch.ones(2, 3)
