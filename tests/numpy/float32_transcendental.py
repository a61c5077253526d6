import numpy as np

x = np.array([0.5, 1.5, 2.5, 3.5], dtype=np.float32)
print(np.exp(x))
print(np.log(x), np.tanh(x), np.sin(x))
