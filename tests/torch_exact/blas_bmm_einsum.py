import torch

a = (torch.arange(24, dtype=torch.float32) * 0.21).sin().reshape(2, 3, 4)
b = (torch.arange(16, dtype=torch.float32) * 0.17).cos().reshape(2, 4, 2)
print(torch.bmm(a, b).tolist())
print(torch.einsum('bij,bjk->bik', a, b).tolist())
print(torch.matmul(a, b[0]).tolist())
