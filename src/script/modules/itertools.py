# itertools, written with generators (CPython's is C; its frames do not show in tracebacks,
# and neither do this module's). Semantics and error messages follow CPython 3.11.

def _index(v, what):
    if v is None:
        return None
    if not isinstance(v, int) or v < 0:
        raise ValueError(what)
    return v


# Each function does at call time what CPython does at construction (iter() of its
# arguments, argument checks) and returns a generator for the rest.

def count(start=0, step=1):
    for v in (start, step):
        if not isinstance(v, (int, float)):
            raise TypeError("a number is required")
    return _count(start, step)


def _count(n, step):
    while True:
        yield n
        n += step


def cycle(iterable):
    return _cycle(iter(iterable))


def _cycle(it):
    saved = []
    for element in it:
        yield element
        saved.append(element)
    if not saved:
        return
    while True:
        for element in saved:
            yield element


def repeat(obj, times=None):
    if times is None:
        return _repeat_forever(obj)
    return _repeat(obj, times)


def _repeat_forever(obj):
    while True:
        yield obj


def _repeat(obj, times):
    for _ in range(times):
        yield obj


def accumulate(iterable, func=None, *, initial=None):
    return _accumulate(iter(iterable), func, initial)


def _accumulate(it, func, total):
    if total is None:
        try:
            total = next(it)
        except StopIteration:
            return
    yield total
    for element in it:
        total = total + element if func is None else func(total, element)
        yield total


def chain(*iterables):
    return _from_iterable(iterables)


def _from_iterable(iterables):
    for it in iterables:
        for element in it:
            yield element


chain.from_iterable = _from_iterable


def compress(data, selectors):
    return _compress(iter(data), iter(selectors))


def _compress(data, selectors):
    for d, s in zip(data, selectors):
        if s:
            yield d


def dropwhile(predicate, iterable):
    return _dropwhile(predicate, iter(iterable))


def _dropwhile(predicate, it):
    for x in it:
        if not predicate(x):
            yield x
            break
    for x in it:
        yield x


def takewhile(predicate, iterable):
    return _takewhile(predicate, iter(iterable))


def _takewhile(predicate, it):
    for x in it:
        if predicate(x):
            yield x
        else:
            break


def filterfalse(predicate, iterable):
    return _filterfalse(bool if predicate is None else predicate, iter(iterable))


def _filterfalse(predicate, it):
    for x in it:
        if not predicate(x):
            yield x


def starmap(function, iterable):
    return _starmap(function, iter(iterable))


def _starmap(function, it):
    for args in it:
        yield function(*args)


_STOP = "Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize."
_INDEX = "Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize."


def islice(iterable, *args):
    if not args:
        raise TypeError("islice expected at least 2 arguments, got 1")
    if len(args) > 3:
        raise TypeError(f"islice expected at most 4 arguments, got {len(args) + 1}")
    it = iter(iterable)
    if len(args) == 1:
        start, stop, step = 0, _index(args[0], _STOP), 1
    else:
        start = _index(args[0], _INDEX)
        stop = _index(args[1], _STOP)
        step = args[2] if len(args) == 3 else None
        if start is None:
            start = 0
        if step is None:
            step = 1
        elif not isinstance(step, int) or step <= 0:
            raise ValueError("Step for islice() must be a positive integer or None.")
    return _islice(it, start, stop, step)


def _islice(it, start, stop, step):
    i = 0
    nexti = start
    while stop is None or i < stop:
        try:
            element = next(it)
        except StopIteration:
            return
        if i == nexti:
            yield element
            nexti += step
        i += 1


def tee(iterable, n=2):
    if n < 0:
        raise ValueError("n must be >= 0")
    it = iter(iterable)
    buffers = [[] for _ in range(n)]
    return tuple(_tee_one(it, b, buffers) for b in buffers)


def _tee_one(it, mine, buffers):
    while True:
        if not mine:
            try:
                value = next(it)
            except StopIteration:
                return
            for b in buffers:
                b.append(value)
        yield mine.pop(0)


def zip_longest(*iterables, fillvalue=None):
    return _zip_longest([iter(it) for it in iterables], fillvalue)


def _zip_longest(iterators, fillvalue):
    active = len(iterators)
    if not active:
        return
    while True:
        values = []
        for i, it in enumerate(iterators):
            try:
                value = next(it)
            except StopIteration:
                active -= 1
                if not active:
                    return
                iterators[i] = _repeat_forever(fillvalue)
                value = fillvalue
            values.append(value)
        yield tuple(values)


def product(*iterables, repeat=1):
    if repeat < 0:
        raise ValueError("repeat argument cannot be negative")
    pools = [tuple(pool) for pool in iterables] * repeat
    return _product(pools)


def _product(pools):
    n = len(pools)
    if any(not p for p in pools):
        return
    indices = [0] * n
    yield tuple(p[0] for p in pools)
    while True:
        i = n - 1
        while i >= 0:
            indices[i] += 1
            if indices[i] < len(pools[i]):
                break
            indices[i] = 0
            i -= 1
        if i < 0:
            return
        yield tuple(pools[j][indices[j]] for j in range(n))


def permutations(iterable, r=None):
    pool = tuple(iterable)
    n = len(pool)
    r = n if r is None else r
    if r < 0:
        raise ValueError("r must be non-negative")
    return _permutations(pool, n, r)


def _permutations(pool, n, r):
    if r > n:
        return
    indices = list(range(n))
    cycles = list(range(n, n - r, -1))
    yield tuple(pool[i] for i in indices[:r])
    while n:
        for i in reversed(range(r)):
            cycles[i] -= 1
            if cycles[i] == 0:
                indices[i:] = indices[i + 1:] + indices[i:i + 1]
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[-j] = indices[-j], indices[i]
                yield tuple(pool[i] for i in indices[:r])
                break
        else:
            return


def _pool_for(iterable, r):
    """The items `combinations` and `combinations_with_replacement` draw from, read before
    a negative `r` is refused, as CPython's do."""
    pool = tuple(iterable)
    if r < 0:
        raise ValueError("r must be non-negative")
    return pool


def combinations(iterable, r):
    return _combinations(_pool_for(iterable, r), r)


def _combinations(pool, r):
    n = len(pool)
    if r > n:
        return
    indices = list(range(r))
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != i + n - r:
                break
        else:
            return
        indices[i] += 1
        for j in range(i + 1, r):
            indices[j] = indices[j - 1] + 1
        yield tuple(pool[i] for i in indices)


def combinations_with_replacement(iterable, r):
    return _combinations_with_replacement(_pool_for(iterable, r), r)


def _combinations_with_replacement(pool, r):
    n = len(pool)
    if not n and r:
        return
    indices = [0] * r
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != n - 1:
                break
        else:
            return
        indices[i:] = [indices[i] + 1] * (r - i)
        yield tuple(pool[i] for i in indices)


def pairwise(iterable):
    return _pairwise(iter(iterable))


def _pairwise(it):
    try:
        a = next(it)
    except StopIteration:
        return
    for b in it:
        yield a, b
        a = b


class groupby:
    def __init__(self, iterable, key=None):
        if key is None:
            key = _identity
        self._keyfunc = key
        self._it = iter(iterable)
        self._tgtkey = self._currkey = self._currvalue = object()
        self._id = None

    def __iter__(self):
        return self

    def __next__(self):
        self._id = object()
        while self._currkey == self._tgtkey:
            self._currvalue = next(self._it)
            self._currkey = self._keyfunc(self._currvalue)
        self._tgtkey = self._currkey
        return (self._currkey, self._grouper(self._tgtkey, self._id))

    def _grouper(self, tgtkey, id):
        while self._id is id and self._currkey == tgtkey:
            yield self._currvalue
            try:
                self._currvalue = next(self._it)
            except StopIteration:
                return
            self._currkey = self._keyfunc(self._currvalue)


def _identity(x):
    return x
