import torch
print(torch.tensor([]))
print(torch.zeros(0, 3))
print(torch.tensor([], dtype=torch.int64))
print(torch.tensor([]).shape, torch.zeros(0, 3).shape)
print(torch.tensor([]).dtype, torch.tensor([]).numel())
