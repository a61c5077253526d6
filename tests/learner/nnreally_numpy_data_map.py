import numpy as np
import torch

np.random.seed(0)
x_train = np.random.rand(6, 4).astype(np.float32)
y_train = np.array([1, 0, 3, 2, 1, 0])
x_valid = np.ones((2, 4), dtype=np.float32)
y_valid = np.array([2, 3])

x_train, y_train, x_valid, y_valid = map(
    torch.tensor, (x_train, y_train, x_valid, y_valid)
)
n, c = x_train.shape
print(x_train, y_train)
print(x_train.shape)
print(y_train.min(), y_train.max())
print(n, c, x_valid.dtype, y_valid.dtype)
