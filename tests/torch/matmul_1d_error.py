import torch
a = torch.tensor([1., 2.])
print(a @ a)
a @ torch.tensor([1., 2., 3.])
