def down(n):
    yield n
    yield from down(n + 1)


for x in down(0):
    pass
