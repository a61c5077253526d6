import numpy as np

a = np.arange(24).reshape(2, 3, 4)
print(a[1, 2, 3], a[-1, -1], a[:, 1], a[..., 0], a[0, :, ::-2])
print(a[:, None, 1].shape, a[None].shape, a[..., None].shape)
print(a[1, [0, 2]], a[[0, 1], [1, 2]], a[:, [2, 0], 1:3])
print(a[a % 5 == 0])
print(a[0][a[0] > 5])
print(a[[True, False]])
print(a[:, :, [0, -1]].shape, a[[0, 1], :, [0, 1]].shape)
b = np.arange(10)
print(b[2:8:3], b[::-1], b[-3:], b[:100], b[5:2], b[np.array([1, 1, 2])])
b[::2] = 0
print(b)
b[[1, 3]] = [-1, -3]
print(b)
b[b < 0] += 100
print(b)
c = np.zeros((3, 3))
c[1] = 5
c[:, 2] = [7, 8, 9]
c[0, :2] = np.array([1.5, 2.5])
c[c > 8] = -1
print(c)
d = c[1:, 1:]
d[...] = 42
print(c)
try:
    b[10]
except IndexError as e:
    print(e)
try:
    a[0, 0, 0, 0]
except IndexError as e:
    print(e)
for row in np.arange(6).reshape(3, 2):
    print(row, row.sum())
print(len(a), a.shape, a[0].shape, a.T.shape, a.ndim, a.size, a.itemsize, a.nbytes)
print(a.reshape(4, -1).shape, a.reshape((3, 8))[2], a.ravel()[-1], a.flatten()[:3])
v = a.reshape(-1)
v[0] = 99
print(a[0, 0, 0])
print(np.transpose(a).shape, a.transpose(1, 0, 2).shape, np.squeeze(a[:, :1]).shape)
e = np.arange(5)
print(e[np.int64(2)], e[np.array(3)])
