import torch

a = torch.tensor([5, 3, -7])
print(a / 2)
print(a // 2)
print(torch.div(a, 2, rounding_mode='trunc'))
print(torch.div(a, 2, rounding_mode='floor'))
print(a % 3)
a /= 2
print(a)
