import torch

a = torch.tensor([1, 2])
b = torch.tensor([3, 4])
print(torch.hstack((a, b)))
print(torch.vstack((a, b)))
print(torch.dstack((a, b)).shape)
print(torch.column_stack((a, b)))
print(torch.row_stack((a, b)).shape)
m = torch.ones(2, 2)
print(torch.hstack([m, m * 2]))
