import torch

x = torch.zeros(4, 3, 2)
n, c, l = x.shape
print(n, c, l)
first, *rest = x.shape
print(first, rest)
values, indices = torch.tensor([3, 1, 2]).sort()
print(values, indices)
(a, b), c = (torch.tensor(1), torch.tensor(2)), 3
print(a + b + c)
