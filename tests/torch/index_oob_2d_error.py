import torch
x = torch.zeros(2, 3)
print(x[1, 2])
x[0, 5]
