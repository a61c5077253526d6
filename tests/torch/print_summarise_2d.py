import torch
print(torch.arange(2000).reshape(40, 50))
print(torch.ones(1001, 1))
