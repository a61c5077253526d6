import torch

A = torch.tensor([[4.0, 1.0], [2.0, 3.0]])
print(torch.linalg.det(A))
print(torch.linalg.inv(A))
b = torch.tensor([1.0, 2.0])
print(torch.linalg.solve(A, b))
print(A @ torch.linalg.inv(A))
print(torch.linalg.matrix_rank(A))
print(torch.linalg.norm(A, ord='fro'))
