# functools: reduce, partial, wraps, lru_cache/cache, cmp_to_key, total_ordering (frames of this
# module do not show in tracebacks, as CPython's C implementations do not).
from collections import namedtuple

WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__")
WRAPPER_UPDATES = ("__dict__",)


def reduce(function, iterable, *initial):
    if len(initial) > 1:
        raise TypeError(f"reduce expected at most 3 arguments, got {len(initial) + 2}")
    it = iter(iterable)
    if initial:
        value = initial[0]
    else:
        value = next(it, _MISSING)
        if value is _MISSING:
            raise TypeError("reduce() of empty iterable with no initial value")
    for element in it:
        value = function(value, element)
    return value


class _Missing:
    pass


_MISSING = _Missing()


class partial:
    def __init__(self, func, /, *args, **keywords):
        if not callable(func):
            raise TypeError("the first argument must be callable")
        if isinstance(func, partial):
            args = func.args + args
            keywords = {**func.keywords, **keywords}
            func = func.func
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, /, *args, **keywords):
        keywords = {**self.keywords, **keywords}
        return self.func(*self.args, *args, **keywords)

    def __repr__(self):
        parts = [repr(self.func)]
        parts.extend(repr(x) for x in self.args)
        parts.extend(f"{k}={v!r}" for k, v in self.keywords.items())
        return f"functools.partial({', '.join(parts)})"


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    for attr in assigned:
        if hasattr(wrapped, attr):
            setattr(wrapper, attr, getattr(wrapped, attr))
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    return partial(update_wrapper, wrapped=wrapped, assigned=assigned, updated=updated)


_CacheInfo = namedtuple("CacheInfo", ["hits", "misses", "maxsize", "currsize"])


class _KwMark:
    pass


_KWMARK = _KwMark()


def _cached(func, maxsize):
    memo = {}
    stats = [0, 0]

    def wrapper(*args, **kwargs):
        key = args
        if kwargs:
            key = args + (_KWMARK,) + tuple(kwargs.items())
        if key in memo:
            stats[0] += 1
            value = memo.pop(key)
            memo[key] = value
            return value
        stats[1] += 1
        value = func(*args, **kwargs)
        if maxsize is None or maxsize > 0:
            memo[key] = value
            if maxsize is not None and len(memo) > maxsize:
                del memo[next(iter(memo))]
        return value

    def cache_info():
        return _CacheInfo(stats[0], stats[1], maxsize, len(memo))

    def cache_clear():
        memo.clear()
        stats[0] = stats[1] = 0

    update_wrapper(wrapper, func)
    wrapper.cache_info = cache_info
    wrapper.cache_clear = cache_clear
    return wrapper


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize) and not isinstance(maxsize, bool):
        return _cached(maxsize, 128)
    if maxsize is not None and not isinstance(maxsize, int):
        raise TypeError("Expected first argument to be an integer, a callable, or None")
    if maxsize is not None and maxsize < 0:
        maxsize = 0

    def decorating(func):
        return _cached(func, maxsize)

    return decorating


def cache(user_function):
    return _cached(user_function, None)


def cmp_to_key(mycmp):
    class K:
        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0

        __hash__ = None

    return K


def total_ordering(cls):
    defined = [op for op in ("__lt__", "__le__", "__gt__", "__ge__") if op in cls.__dict__]
    if not defined:
        raise ValueError("must define at least one ordering operation: < > <= >=")
    root = defined[0]
    if root == "__lt__":
        derived = {
            "__gt__": lambda self, other: not (self.__lt__(other) or self == other),
            "__le__": lambda self, other: self.__lt__(other) or self == other,
            "__ge__": lambda self, other: not self.__lt__(other),
        }
    elif root == "__le__":
        derived = {
            "__ge__": lambda self, other: not self.__le__(other) or self == other,
            "__lt__": lambda self, other: self.__le__(other) and not self == other,
            "__gt__": lambda self, other: not self.__le__(other),
        }
    elif root == "__gt__":
        derived = {
            "__lt__": lambda self, other: not (self.__gt__(other) or self == other),
            "__ge__": lambda self, other: self.__gt__(other) or self == other,
            "__le__": lambda self, other: not self.__gt__(other),
        }
    else:
        derived = {
            "__le__": lambda self, other: not self.__ge__(other) or self == other,
            "__gt__": lambda self, other: self.__ge__(other) and not self == other,
            "__lt__": lambda self, other: not self.__ge__(other),
        }
    for name, fn in derived.items():
        if name not in defined:
            setattr(cls, name, fn)
    return cls

