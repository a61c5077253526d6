import numpy as np

a = np.arange(9).reshape(3, 3)
a[0, 1] = 50
a[:, 0] = -1
print(a)
a[a > 5] = 0
print(a)
b = np.zeros(5)
b[1:3] = [7, 8]
b[-1] += 2.5
print(b)
