import torch

# matrix products: PyTorch's order of summation belongs to its BLAS
a = (torch.arange(12, dtype=torch.float32) * 0.37).sin().reshape(3, 4)
b = (torch.arange(20, dtype=torch.float32) * 0.11).cos().reshape(4, 5)
print((a @ b).tolist())
print(torch.mm(a, b)[1].tolist())
print((a @ a.T).tolist())
