# functools: reduce, partial, wraps, lru_cache/cache, cmp_to_key, total_ordering.
import functools
print(functools.reduce(lambda x, y: x + y, [1, 2, 3, 4]), functools.reduce(lambda x, y: x * y, [], 1))
p = functools.partial(pow, 2)
print(p(10), p.func is pow, p.args)
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(60), fib.cache_info())
def deco(f):
    @functools.wraps(f)
    def inner(*a):
        return f(*a)
    return inner
@deco
def hello():
    "doc"
    return 1
print(hello.__name__, hello.__doc__, hello())
print(sorted([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a)))
try:
    functools.reduce(lambda a, b: a + b, [])
except TypeError as e:
    print(e)
print(functools.reduce(max, [3, 9, 2]), functools.reduce(lambda a, b: a + [b], "ab", []))
scale = functools.partial(lambda x, factor=1: x * factor, factor=3)
print(scale(2), scale(2, factor=5), scale.keywords)


@functools.cache
def slow_square(n):
    print("computing", n)
    return n * n


print(slow_square(4), slow_square(4), slow_square.cache_info().hits)


@functools.lru_cache(maxsize=2)
def ident(x):
    return x


for v in [1, 2, 1, 3, 1, 2]:
    ident(v)
print(ident.cache_info())
ident.cache_clear()
print(ident.cache_info())


@functools.total_ordering
class Version:
    def __init__(self, n):
        self.n = n

    def __eq__(self, other):
        return self.n == other.n

    def __lt__(self, other):
        return self.n < other.n


print(Version(1) < Version(2), Version(3) >= Version(2), Version(2) <= Version(2), Version(1) > Version(2))
