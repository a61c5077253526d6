import torch

a = torch.zeros(3)
b = torch.ones(2, 3)
print(a + b)
a += b
print(a)
