import torch

a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([1.0, 2.5, 3.0])
print(a == b)
print(a.eq(b))
print(a > 1.5)
print(torch.equal(a, b))
print(torch.allclose(a, b, atol=0.6))
print((a != b).any(), (a == b).all())
print(a.ge(2), b.lt(3))
print(torch.maximum(a, b))
