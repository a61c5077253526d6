import numpy as np

a = np.array([[1, 2, 3], [4, 5, 6]])
print(a)
print(a.shape, a.dtype, a.ndim, a.size)
b = np.array([1.5, 2.0, -3.25])
print(b, b.dtype)
print(repr(a))
print(repr(b))
print(type(a).__name__)
