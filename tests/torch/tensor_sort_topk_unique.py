import torch
x = torch.tensor([3, 1, 4, 1, 5, 9, 2, 6])
print(x.sort())
print(torch.sort(x, descending=True).values)
print(x.topk(3))
print(torch.unique(x))
print(x.argsort())
