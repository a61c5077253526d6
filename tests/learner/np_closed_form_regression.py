import numpy as np
import torch

np.random.seed(0)
X = np.c_[np.ones(20), np.random.rand(20)]
true_w = np.array([1.0, 3.0])
y = X @ true_w + 0.01 * np.random.randn(20)
w = np.linalg.solve(X.T @ X, X.T @ y)
print(np.round(w, 3))
Xt = torch.from_numpy(X)
yt = torch.from_numpy(y)
wt = torch.linalg.solve(Xt.T @ Xt, Xt.T @ yt)
print(wt.dtype, np.allclose(wt.numpy(), w))
