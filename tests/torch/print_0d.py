import torch
print(torch.tensor(3.5))
print(torch.tensor(7))
print(torch.tensor(-0.25))
print(torch.tensor([1., 2., 3.]).sum())
print(torch.tensor([1, 2, 3]).sum())
print(torch.tensor(2.0, dtype=torch.float64))
print(torch.tensor(5).shape, torch.tensor(5).dim())
