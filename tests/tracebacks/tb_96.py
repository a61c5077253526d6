def gen():
    yield 1


g = gen()
print(next(g))
print(g.send(None), g.send(None))
