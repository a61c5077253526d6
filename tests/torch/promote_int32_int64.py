import torch
a = torch.tensor([1, 2], dtype=torch.int32)
b = torch.tensor([3, 4], dtype=torch.int64)
print(a + b, (a + b).dtype)
print((a + 1).dtype)
print((a * 1.5).dtype)
c = torch.tensor([1, 2], dtype=torch.uint8)
print((c + a).dtype)
print(torch.tensor([1], dtype=torch.int8) + torch.tensor([1], dtype=torch.int16))
