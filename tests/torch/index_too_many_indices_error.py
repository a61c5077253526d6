import torch
x = torch.arange(4)
print(x[1])
x[1, 0]
