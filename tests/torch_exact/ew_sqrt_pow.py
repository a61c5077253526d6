import torch

x = torch.tensor([0.0, 0.01, 0.5, 2.0, 3.0, 10.0, 99.9])
print(torch.sqrt(x).tolist())
print(torch.rsqrt(x[1:]).tolist())
print(torch.pow(x, 2.5).tolist())
print((x ** 0.5).tolist())
print((x ** 2).tolist())
print((x ** 3).tolist())
print(torch.pow(2.0, x).tolist())
print((x ** -1.5)[1:].tolist())
