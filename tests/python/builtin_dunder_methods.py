# Special methods of builtin values read as attributes (slot wrappers): bound, callable later.
import os

d = {}
store = lambda k, v: d.__setitem__(k, v)
store('a', 1)
setter = d.__setitem__
setter('b', 2)
print(d, d.__getitem__('a'), d.__len__(), d.__contains__('b'))
d.__delitem__('a')
print(d)
xs = [3, 1]
print(xs.__len__(), xs.__getitem__(0), list(xs.__iter__()), xs.__add__([4]), xs.__mul__(2))
print('ab'.__contains__('a'), 'ab'.__add__('c'), (3).__add__(4), (7).__sub__(2), (2.5).__mul__(2))
print([1].__eq__([1]), (1).__lt__(2), 'b'.__ge__('a'), (1, 2).__repr__(), (5).__str__())
for bad in [lambda: (5).__getitem__, lambda: (1, 2).__setitem__]:
    try:
        bad()
    except AttributeError as e:
        print(e)
print(isinstance(os.cpu_count(), int) and os.cpu_count() > 0)
