def inner():
    yield 1
    raise ValueError("inner failed")


def outer():
    result = yield from inner()
    yield result


print(list(outer()))
