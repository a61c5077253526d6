import torch
x = torch.zeros(2, 3)
x[0] = 5
print(x)
x[:, 1] = torch.tensor([7., 8.])
print(x)
x[1, 2] = -1.5
print(x)
x[x == 0] = 9
print(x)
