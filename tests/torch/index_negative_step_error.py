import torch
x = torch.arange(5)
print(x[::2])
x[::-1]
