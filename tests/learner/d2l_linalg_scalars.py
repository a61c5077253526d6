import torch

x = torch.tensor(3.0)
y = torch.tensor(2.0)
print(x + y, x * y, x / y, x ** y)
x = torch.arange(4)
print(x)
print(x[3])
print(len(x))
print(x.shape)
