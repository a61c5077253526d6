import torch

x = (torch.arange(50, dtype=torch.float32) * 0.3).sin()
print(repr(x.norm().item()))
print(repr(x.norm(p=1).item()), repr(x.norm(p=float('inf')).item()))
print(repr(x.norm(p=3).item()))
m = x.reshape(5, 10)
print(m.norm(dim=1).tolist())
print(torch.linalg.vector_norm(m, dim=0).tolist())
print(repr(torch.linalg.norm(m).item()))
