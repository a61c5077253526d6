def takes(it):
    while True:
        yield next(it)


print(list(takes(iter([1, 2]))))
