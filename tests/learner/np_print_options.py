import numpy as np

a = np.array([1e-5, 0.5, 123.456789, 1e5])
print(a)
np.set_printoptions(precision=3, suppress=True)
print(a)
print(np.array([0.1, 0.25, 1.0 / 3]))
print(np.array([1.0, 2.0, 3.0]))
print(np.array([[1.123456, 2.0], [3.0, 4.5]]))
