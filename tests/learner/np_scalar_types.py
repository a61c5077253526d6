import numpy as np

x = np.float32(0.1)
y = np.float64(0.1)
print(x, y)
print(repr(x), repr(y))
print(type(x + 1).__name__, type(y * 2).__name__)
print(float(x))
print(np.int64(7) // 2, repr(np.int64(7)))
print(np.array([1, 2]).sum(), repr(np.array([1, 2]).sum()))
print(np.float32(1) / np.float32(3))
