# A suspended generator is closed when its last reference goes: GeneratorExit at the yield,
# finally blocks and with-exits run then.
class Resource:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("open", self.name)
        return self

    def __exit__(self, *exc):
        print("close", self.name, exc[0].__name__ if exc[0] else None)
        return False


def reader(name):
    with Resource(name):
        try:
            for i in range(10):
                yield i
        finally:
            print("finally", name)


for x in reader("a"):
    if x == 1:
        break
print("after the loop")
r = reader("b")
print(next(r))
r = None
print("after dropping b")
r2 = reader("c")
print(next(r2))
r2.close()
print("after close")


def catches_exit():
    try:
        yield 1
    except GeneratorExit:
        print("GeneratorExit seen")
        raise


c = catches_exit()
next(c)
del c
print("end")
