import itertools
def g():
    yield 1
    1/0
print(list(itertools.chain(g())))
