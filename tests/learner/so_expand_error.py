import torch

x = torch.tensor([[1], [2], [3]])
print(x.expand(3, 4))
print(x.expand(-1, 2))
print(x.expand(2, 4))
