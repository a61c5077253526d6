def once():
    yield 1


g = once()
next(g)
next(g)
