import torch

x = torch.arange(6).reshape(2, 3)
y = x.t()
print(y)
print(y.reshape(-1))
print(y.contiguous().view(-1))
z = y.view(-1)
print(z)
