import torch

ids = torch.tensor([2**53 + 1, 9007199254740993, 2**62 + 7, -(2**63)])
print(ids)
print(ids.tolist())
print(ids[0].item(), ids[1].item() - 2**53)
print(ids.max(), ids.dtype)
h = torch.tensor(1234567890123456789)
print(h, h.item(), h + 1)
print(torch.tensor([12345678901234567, 1]) * 3)
print(int(torch.tensor(2**60 + 3)))
