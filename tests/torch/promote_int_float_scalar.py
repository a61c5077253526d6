import torch
t = torch.tensor([1, 2])
print(t + 1.5)
print((t + 1.5).dtype)
print(t * 2, (t * 2).dtype)
print(t + True)
print(torch.tensor([1.0, 2.0]) + 1)
print((t * 2.0).dtype)
