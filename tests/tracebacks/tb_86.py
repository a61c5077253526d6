def numbers():
    yield 1
    yield int("two")


def first_two(it):
    return next(it), next(it)


print(first_two(numbers()))
