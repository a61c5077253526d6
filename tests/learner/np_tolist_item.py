import numpy as np

a = np.array([[1.5, 2.5], [3.5, 4.5]])
print(a.tolist())
print(a[0, 1].item(), type(a[0, 1].item()).__name__)
print(float(a[1, 0]), int(a[1, 1]))
print(type(a[0, 0]).__name__)
print(a.sum().item())
