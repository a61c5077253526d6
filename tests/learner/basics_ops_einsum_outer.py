import torch

a = torch.arange(3.0)
b = torch.arange(4.0)
print(torch.outer(a, b))
print(torch.einsum('i,j->ij', a, b))
A = torch.arange(6.0).view(2, 3)
B = torch.arange(12.0).view(3, 4)
print(torch.einsum('ij,jk->ik', A, B))
print(torch.einsum('ii->i', torch.eye(3) * 2))
print(torch.einsum('ij->', A))
x = torch.ones(2, 3, 4)
print(torch.einsum('bij->bji', x).shape)
