import torch
print(torch.arange(12).reshape(2, 2, 3))
print(torch.arange(8.).reshape(2, 2, 2))
print(torch.zeros(1, 1, 2))
