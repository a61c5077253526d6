def scale(x, *, factor=2, offset=0):
    return x * factor + offset
print(scale(3))
print(scale(3, factor=10))
print(scale(3, offset=1, factor=0))
def pos_kw(a, /, b, *, c):
    return a + b + c
print(pos_kw(1, 2, c=3), pos_kw(1, b=2, c=3))
