import torch
x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(x[0])
print(x[1, 2], x[-1, -1])
print(x[1][0])
print(x[0, 1].item())
print(x[-1])
v = torch.arange(5)
print(v[0], v[-2])
