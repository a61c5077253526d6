import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 0.5, 0.5])
d = torch.tensor([1.0], dtype=torch.float64)
print((i + f).dtype, (i * 2.5).dtype, (f + d).dtype)
print((i + True).dtype, (torch.tensor([True]) + torch.tensor([True])).dtype)
print(torch.result_type(i, 1.0), torch.promote_types(torch.int32, torch.float16))
print(i.to(torch.int8) + 200)
print((torch.tensor([1], dtype=torch.int32) * 3).dtype)
