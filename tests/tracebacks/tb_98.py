import itertools
for x in itertools.islice([1, 2], -1):
    pass
