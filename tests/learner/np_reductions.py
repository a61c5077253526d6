import numpy as np

a = np.array([[3, 7, 2], [9, 1, 5]])
print(a.sum(), a.sum(axis=0), a.sum(axis=1))
print(a.mean(), a.mean(axis=0))
print(a.max(), a.min(), a.argmax(), a.argmin(axis=1))
print(np.std(a), np.var(a, axis=1))
print(a.cumsum())
print(np.median(a))
