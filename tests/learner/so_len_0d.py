import torch

x = torch.tensor([[1, 2], [3, 4]])
print(len(x), len(x[0]))
s = x.sum()
print(s)
print(len(s))
