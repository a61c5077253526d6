import torch

a = torch.tensor([1.0, 2.0, 3.0])
b = a.clone().detach()
print(b)
c = torch.tensor(a)
print(c)
