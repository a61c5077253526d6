import torch
x = torch.tensor([10, 20, 30, 40])
print(x[torch.tensor([0, 2])])
print(x[[3, 3, 1]])
m = torch.arange(9).view(3, 3)
print(m[[0, 1], [1, 0]])
print(m[torch.tensor([2, 0])])
print(m[:, torch.tensor([0, 2])])
print(m[torch.tensor([[0, 1], [2, 2]])].shape)
