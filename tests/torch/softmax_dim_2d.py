import torch
import torch.nn.functional as F
x = torch.tensor([[1., 2., 3.], [1., 0., -1.]])
p = F.softmax(x, dim=1)
print(p)
print(p.sum(dim=1))
print(F.softmax(x, dim=0))
print(p.argmax(dim=1))
