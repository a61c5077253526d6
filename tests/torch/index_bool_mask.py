import torch
x = torch.tensor([3., -1., 4., -1., 5.])
print(x[x > 0])
mask = x < 0
print(mask)
x[mask] = 0
print(x)
m = torch.tensor([[1, 2], [3, 4]])
print(m[m % 2 == 0])
print(x[torch.tensor([True, False, True, False, False])])
