import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(x / x.sum(dim=1, keepdim=True))
print(x / x.sum(dim=0))
print(x / x.sum(dim=1))
