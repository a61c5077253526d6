import numpy as np

a = np.arange(12, dtype=np.float64).reshape(3, 4) / 7
print(a.sum(), a.sum(axis=0), a.sum(axis=1), a.sum(axis=(0, 1)))
print(a.mean(), a.mean(axis=0), a.mean(axis=-1, keepdims=True))
print(a.std(), a.std(axis=0), a.var(axis=1), a.std(ddof=1))
print(a.max(), a.min(axis=0), a.argmax(), a.argmin(axis=1), a.max(axis=1, keepdims=True))
print(np.prod(np.array([1, 2, 3, 4])), np.cumsum(a, axis=0), np.cumprod([1, 2, 3]))
print(np.median(a, axis=0), np.median(np.array([3, 1, 2])))
f = np.linspace(0, 1, 1001, dtype=np.float32)
print(f.sum(), f.mean(), f.std(), f.var(), repr(f.sum()))
g = np.arange(1, 300) / 3
print(g.sum(), g.mean(), g.std())
b = np.array([True, False, True])
print(b.sum(), b.mean(), b.any(), b.all(), np.any(b), repr(b.sum()))
i = np.array([[3, 7, 2], [9, 1, 5]], dtype=np.int32)
print(repr(i.sum()), repr(i.sum(axis=0)), repr(i.mean()), repr(i.max()))
print(np.sum([1.5, 2.5]), np.mean([1, 2, 3, 4]), np.max([3, 9, 2]), np.argmax([3, 9, 2]))
try:
    np.array([]).max()
except ValueError as e:
    print(e)
print(np.sort(np.array([3, 1, 2])), np.argsort(np.array([[3, 1, 2], [0, 5, 4]])), np.unique([3, 1, 3, 2]))
print(np.count_nonzero(np.array([0, 1, 2, 0])), np.nonzero(np.array([0, 1, 2, 0])))
print(np.where(np.array([[1, 0], [0, 1]])))
