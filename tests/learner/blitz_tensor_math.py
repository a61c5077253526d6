import torch
import math

a = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print('a:')
print(a)
print(torch.sin(a))
b = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
print(torch.abs(-b))
print(torch.asin(torch.tensor([0.0, 0.5, 1.0])))
print(torch.det(b))
print(torch.ceil(torch.tensor([1.2, -1.2])), torch.floor(torch.tensor([1.7, -1.7])))
print(torch.exp(torch.tensor([0.0, 1.0])), torch.log(torch.tensor([1.0, math.e])))
print(torch.sqrt(torch.tensor([4.0, 2.0])))
