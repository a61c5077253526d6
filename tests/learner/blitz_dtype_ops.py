import torch

torch.manual_seed(0)
a = torch.ones((2, 3), dtype=torch.int16)
print(a)

b = torch.rand((2, 3), dtype=torch.float64) * 20.
print(b)

c = b.to(torch.int32)
print(c)
print(a + c)
print((a * 1.5).dtype)
