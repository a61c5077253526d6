import functools
functools.reduce(lambda a, b: a + b, [])
