import torch

x = torch.arange(10, dtype=torch.float32)
y = x * 0.1 + 0.2
print(y.tolist())
z = x.clone()
z.mul_(0.1).add_(0.2)
print(z.tolist())
print(torch.equal(y, z))
print(((x + 0.5) * 1.1 - 0.3).tolist())
print((x / 7 * 7).tolist())
print((3.3 - x).tolist())
