import numpy as np
import torch

np.random.seed(1)
X = np.random.rand(5, 3) * 10
mean = X.mean(axis=0)
std = X.std(axis=0)
Xn = (X - mean) / std
print(np.round(Xn.mean(axis=0), 6))
t = torch.tensor(Xn, dtype=torch.float32)
print(t)
print(t.std(dim=0, unbiased=False))
