import torch
x = torch.tensor([1.0])
print(x + 1)
x + "1"
