import numpy as np

a = np.array([1, 2, 3])
b = np.array([4, 5, 6])
print(np.concatenate([a, b]))
print(np.stack([a, b]))
print(np.stack([a, b], axis=1))
print(np.vstack([a, b]))
print(np.hstack([a, b]))
c = np.ones((2, 2))
print(np.concatenate([c, c * 2], axis=1))
