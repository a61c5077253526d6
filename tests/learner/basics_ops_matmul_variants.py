import torch

a = torch.arange(6.0).view(2, 3)
b = torch.arange(6.0).view(3, 2)
print(torch.mm(a, b))
print(torch.bmm(a.unsqueeze(0).repeat(2, 1, 1), b.unsqueeze(0).repeat(2, 1, 1)).shape)
print(torch.matmul(a, torch.ones(3)))
print(torch.matmul(torch.ones(4, 2, 3), b).shape)
print(torch.addmm(torch.ones(2, 2), a, b))
print(torch.inner(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print(torch.linalg.matrix_power(torch.tensor([[1.0, 1.0], [0.0, 1.0]]), 3))
