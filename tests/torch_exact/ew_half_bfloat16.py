import torch

v = [0.1, 0.2, 1.0 / 3, 2.5, 1000.7, -0.0004, 65000.0]
h = torch.tensor(v, dtype=torch.float16)
b = torch.tensor(v, dtype=torch.bfloat16)
print(h.tolist())
print(b.tolist())
print((h * h).tolist())
print((b + b * 0.5).tolist())
print(h.float().tolist())
print(torch.tensor(v).half().tolist())
print(torch.tensor(v).bfloat16().float().tolist())
