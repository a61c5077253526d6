import torch

a = torch.tensor([0.1, 0.2, 0.3, 1.7, -2.45, 1e-3, 3.3333, 12345.678])
b = torch.tensor([0.7, -0.3, 0.3, 2.9, 0.05, 7.0, -1.1, 0.001])
print((a + b).tolist())
print((a - b).tolist())
print((a * b).tolist())
print((a / b).tolist())
print((a * 0.1).tolist())
print((a + 0.1).tolist())
print((1 / a).tolist())
print((a / 3).tolist())
