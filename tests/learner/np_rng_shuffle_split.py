import numpy as np

rng = np.random.default_rng(seed=0)
data = np.arange(12)
rng.shuffle(data)
print(data)
train, val = data[:9], data[9:]
print(train, val)
noise = rng.standard_normal(4)
print(noise.round(4))
print(rng.uniform(-1, 1, size=3))
print(rng.integers(10, size=5), rng.integers(1, 7))
print(rng.choice(["cat", "dog", "bird"], size=4))
print(rng.random((2, 2)).dtype, rng.normal(5.0, 0.1))
