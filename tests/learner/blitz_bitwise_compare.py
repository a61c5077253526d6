import torch

b = torch.tensor([[1, 2], [3, 4]])
print(torch.bitwise_xor(torch.tensor([1, 5, 3]), torch.tensor([3, 2, 1])))
d = torch.tensor([[1., 2.], [3., 4.]])
e = torch.ones(1, 2)
print(torch.eq(d, e))
print(torch.clamp(b, min=2, max=3))
print(torch.logical_and(torch.tensor([True, False]), torch.tensor([True, True])))
print(b % 3, b ** 2)
