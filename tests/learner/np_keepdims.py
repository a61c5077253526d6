import numpy as np

a = np.arange(6.0).reshape(2, 3)
s = a.sum(axis=1, keepdims=True)
print(s, s.shape)
print(a / s)
print(a.max(axis=0, keepdims=True).shape)
print(np.expand_dims(a, 0).shape, a[None, :, :].shape, a[:, np.newaxis].shape)
print(np.squeeze(np.ones((1, 3, 1))).shape)
