import torch

a = torch.tensor([True, False, True])
b = torch.tensor([True, True, False])
print(a & b, a | b, a ^ b, ~a)
print(torch.logical_not(a), torch.logical_or(a, b))
x = torch.tensor([1, 0, 3])
print(x.bool(), x.logical_not())
print(torch.any(a), torch.all(a), a.sum())
print(torch.where(a)[0])
