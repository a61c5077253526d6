import numpy as np

scores = np.array([0.3, 0.9, 0.1, 0.7])
print(np.argsort(scores))
print(np.argsort(-scores)[:2])
print(np.sort(scores)[::-1])
labels = np.array([2, 0, 2, 1, 0, 2])
print(np.unique(labels))
print(np.unique(labels, return_counts=True))
print(np.bincount(labels))
