import numpy as np

a = np.arange(12).reshape(3, 4)
print(a)
print(a[1])
print(a[:, 2])
print(a[1:, ::2])
print(a.T)
print(a.reshape(-1))
print(a.flatten().shape, a.ravel()[5])
