import numpy as np

a = np.array([[1.0, 2.0], [3.0, 4.0]])
b = np.array([10.0, 20.0])
print(a + b)
print(a * 2)
print(a @ a)
print(np.dot(a, b))
print(a / 3)
print(a ** 2)
print(np.sqrt(a))
print(np.exp(np.array([0.0, 1.0])))
