import numpy as np

rng = np.random.default_rng(0)
print(rng.random(3))
print(rng.normal(size=2))
print(rng.integers(0, 10, 4))
x = rng.uniform(-1, 1, size=(2, 2))
print(x)
