def gen(xs):
    for x in xs:
        yield 10 / x


for v in gen([1, 0]):
    print(v)
