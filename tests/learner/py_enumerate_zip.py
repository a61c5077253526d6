import torch

names = ["w", "b"]
values = [torch.ones(2, 2), torch.zeros(2)]
for i, (name, v) in enumerate(zip(names, values), start=1):
    print(i, name, tuple(v.shape), v.sum().item())
a = torch.tensor([1, 2, 3])
b = torch.tensor([4, 5, 6])
for x, y in zip(a, b):
    print(x.item() * y.item(), end=" ")
print()
print(list(enumerate(a.tolist())))
