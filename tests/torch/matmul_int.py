import torch
a = torch.tensor([[1, 2], [3, 4]])
b = torch.tensor([[5, 6], [7, 8]])
print(a @ b)
print((a @ b).dtype)
print(torch.tensor([1, 2, 3]) @ torch.tensor([4, 5, 6]))
