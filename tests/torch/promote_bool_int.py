import torch
m = torch.tensor([True, False, True])
print(m + 1, (m + 1).dtype)
print(m + torch.tensor([1, 2, 3]))
print(m.sum(), m.sum().dtype)
print(m * 2.5)
print(m & torch.tensor([True, True, False]))
print(m | torch.tensor([False, True, False]), ~m)
print((m + m).dtype)
