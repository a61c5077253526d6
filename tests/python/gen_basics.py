# Generator functions: next(), StopIteration with the return value, send(), close(), throw().
def count_up(n):
    i = 0
    while i < n:
        yield i
        i += 1
    return f"counted {n}"


print(list(count_up(4)))
g = count_up(2)
print(type(g).__name__, g.__name__, g.__qualname__)
print(next(g), next(g))
try:
    next(g)
except StopIteration as e:
    print("StopIteration:", repr(e.value), e.args)
print(next(g, "exhausted"), next(count_up(0), "empty"))
try:
    next(g)
except StopIteration as e:
    print("again:", repr(e.value), e.args)


def running_mean():
    total, n = 0.0, 0
    mean = None
    while True:
        x = yield mean
        total += x
        n += 1
        mean = total / n


m = running_mean()
print(next(m), m.send(2), m.send(4), m.send(9))
m.close()
print(m.send.__name__ if hasattr(m.send, "__name__") else "send")
try:
    m.send(1)
except StopIteration as e:
    print("closed generator:", e.args)


def guarded():
    try:
        yield "a"
        yield "b"
    except ValueError as e:
        yield f"recovered from {e}"
    finally:
        print("finally in guarded")


gd = guarded()
print(next(gd))
print(gd.throw(ValueError("bad batch")))
print(next(gd, "done"))


def fresh():
    yield 1


try:
    fresh().send(3)
except TypeError as e:
    print(e)
try:
    fresh().throw(KeyError("k"))
except KeyError as e:
    print("thrown before start:", e)
f = fresh()
f.close()
print(list(f))


def self_next():
    yield next(me)


me = self_next()
try:
    next(me)
except ValueError as e:
    print(e)


def pep479():
    yield 1
    raise StopIteration("inner stop")


try:
    print(list(pep479()))
except RuntimeError as e:
    print(type(e).__name__, e, "| cause:", repr(e.__cause__))

lam = lambda: (yield 5)
print(list(lam()))
