# Generator expressions are lazy: the outermost iterable is evaluated at once, the rest when
# the generator is advanced; variables are read when used.
log = []


def source(n):
    log.append(f"source({n})")
    return range(n)


def square(x):
    log.append(f"square({x})")
    return x * x


g = (square(x) for x in source(3))
print(log)
print(next(g), log)
print(list(g), log)
k = 1
scaled = (k * v for v in range(3))
k = 10
print(list(scaled))
items = [1, 2]
lazy = (i for i in items)
items.append(3)
print(list(lazy))
pairs = ((a, b) for a in range(3) for b in range(a))
print(list(pairs))
evens = (n for n in range(20) if n % 2 == 0 if n % 3 == 0)
print(list(evens))
try:
    (x for x in 5)
except TypeError as e:
    print("at creation:", e)
bad = (1 / x for x in [1, 0])
print(next(bad))
try:
    next(bad)
except ZeroDivisionError as e:
    print("when advanced:", e)
print(next(bad, "finished after the error"))
total = sum(x * x for x in range(100000))
print(total)


def make_counter():
    count = 0

    def bump():
        nonlocal count
        count += 1
        return count

    return (bump() for _ in range(3))


print(list(make_counter()))


class Holder:
    values = [1, 2, 3]
    doubled = list(v * 2 for v in values)


print(Holder.doubled)
