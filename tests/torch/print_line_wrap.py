import torch
print(torch.arange(40.))
print(torch.arange(30))
print(torch.arange(20.) / 3)
