import torch
x = torch.tensor([1, 2, 3])
print(x.expand(2, 3).shape)
x.expand(2, 4)
