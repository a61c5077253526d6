import numpy as np

x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0])
print(np.where(x > 0, x, 0))
print(np.where(x < 0))
print(np.clip(x, -1, 1))
print(np.maximum(x, 0))
print(np.abs(x), np.sign(x))
