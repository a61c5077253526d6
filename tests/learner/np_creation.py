import numpy as np

print(np.zeros((2, 3)))
print(np.ones(3, dtype=np.int64))
print(np.eye(3))
print(np.full((2, 2), 7.5))
print(np.zeros_like(np.arange(4)))
print(np.linspace(0, 1, 5))
print(np.arange(0.0, 1.0, 0.25))
print(np.empty((0, 3)).shape)
