import torch
import torch.nn.functional as F
x = torch.tensor([1., 2., 3.])
print(F.softmax(x, dim=0).tolist())
print(F.softmax(x, dim=0))
print(torch.softmax(x, dim=0).sum())
print(x.softmax(dim=-1))
print(F.softmax(torch.tensor([1000., 1000.]), dim=0))
