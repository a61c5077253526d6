import torch
x = torch.tensor([[1, 2], [3, 4]])
for row in x:
    print(row)
print([v.item() for v in torch.tensor([5, 6])])
print(list(torch.arange(3)))
print(len(torch.zeros(7, 2)))
a, b = torch.tensor([1.5, 2.5])
print(a, b)
