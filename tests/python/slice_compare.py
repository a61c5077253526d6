# Slices compare as their (start, stop, step) tuples; they are not hashable in Python 3.11.
print(slice(None) == slice(None), slice(1, 2) == slice(1, 2), slice(1, 2) != slice(1, 3))
print(slice(1, 2) < slice(1, 3), slice(2) <= slice(None, 2), slice(0, 5, 2) > slice(0, 5, 1))
print(slice(1, 2) == (1, 2, None), slice(None, None, None) == slice(None))
try:
    slice(1) < slice('a')
except TypeError as e:
    print('TypeError:', e)
try:
    hash(slice(1))
except TypeError as e:
    print('TypeError:', e)
print([1, 2, 3][slice(1, None)] == [2, 3], slice(1, None) in [slice(1, None)])
