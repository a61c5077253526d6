import numpy as np

np.random.seed(0)
print(np.random.rand(3))
print(np.random.randn(2, 2))
print(np.random.randint(0, 10, 5))
np.random.seed(0)
print(np.random.rand(3))
perm = np.random.permutation(5)
print(perm)
print(np.random.choice([10, 20, 30], size=4))
