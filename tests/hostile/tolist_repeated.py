# expect: MemoryError
# env: ARGS=--time-limit 120
import torch
x = torch.ones(2**24)
keep = []
for _ in range(100):
    keep.append(x.tolist())
