import torch
print(torch.tensor([1, 2]).dtype)
print(torch.tensor([1.0, 2]).dtype)
print(torch.tensor([True, False]).dtype)
print(torch.tensor([1, 2.5]))
print(torch.tensor(3).dtype, torch.tensor(3.0).dtype)
print(torch.tensor([[1, 2], [3, 4]]).shape)
print(torch.tensor([True, 2]))
print(torch.tensor((1, 2, 3)))
