import torch

f = torch.tensor([0.1, 0.7, 1.3])
d = torch.tensor([0.1, 0.7, 1.3], dtype=torch.float64)
print((f + d).tolist(), (f + d).dtype)
print((f * 0.1).tolist())
print((f.double() * 0.1).tolist())
i = torch.tensor([1, 2, 3])
print((i * 0.1).tolist(), (i / 3).tolist())
print((f + i).tolist())
print(torch.tensor(0.1).item(), torch.tensor(0.1, dtype=torch.float64).item())
