import numpy as np

a = np.array([1.0, 2.0, 3.0])
b = a + np.array([1e-9, 1e-3, 0.0])
print(np.isclose(a, b))
print(np.allclose(a, b), np.allclose(a, b, atol=1e-2))
print(np.array_equal(a, a.copy()))
print(0.1 + 0.2 == 0.3, np.isclose(0.1 + 0.2, 0.3))
