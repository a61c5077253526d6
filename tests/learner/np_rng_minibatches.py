import numpy as np
import torch

rng = np.random.default_rng(42)
X = rng.normal(size=(10, 3)).astype(np.float32)
y = rng.integers(0, 2, size=10)
print(X[:2])
print(y)
idx = rng.permutation(10)
print(idx)
for start in range(0, 10, 4):
    batch = idx[start:start + 4]
    xb = torch.from_numpy(X[batch])
    yb = torch.from_numpy(y[batch])
    print(xb.shape, yb.tolist())
print(rng.random(3))
print(rng.choice(5, size=3, replace=False))
