# collections: namedtuple, deque, Counter, defaultdict, OrderedDict. namedtuple and deque are
# classes that hold a tuple or list and answer the same protocols (indexing, iteration, len,
# in, ==, repr as CPython prints them); isinstance(x, tuple) is False for a namedtuple. The
# dict-like ones are dict subclasses (isinstance(x, dict), as checkpoint code expects of a
# state_dict) whose methods work on `self._d`, the instance's own dict storage, so builtin
# code reading the dict (dict(od), dict.items(od)) sees the same items. Frames of this module
# do not show in tracebacks.

from _collections import odict_keys as _odict_keys, odict_values as _odict_values
from _collections import odict_items as _odict_items, dict_items_of as _dict_items_of

_KEYWORDS = frozenset([
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
    "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
    "return", "try", "while", "with", "yield",
])


class _NamedTuple:
    _fields = ()
    _field_defaults = {}

    def __init__(self, *args, **kwargs):
        cls = type(self)
        fields = cls._fields
        name = cls.__name__
        if len(args) > len(fields):
            raise TypeError(
                f"{name}.__new__() takes {len(fields) + 1} positional arguments but {len(args) + 1} were given"
            )
        values = list(args)
        for k in kwargs:
            if k not in fields:
                raise TypeError(f"{name}.__new__() got an unexpected keyword argument '{k}'")
            if fields.index(k) < len(args):
                raise TypeError(f"{name}.__new__() got multiple values for argument '{k}'")
        missing = []
        for f in fields[len(args):]:
            if f in kwargs:
                values.append(kwargs[f])
            elif f in cls._field_defaults:
                values.append(cls._field_defaults[f])
            else:
                missing.append(f)
                values.append(None)
        if missing:
            quoted = [f"'{m}'" for m in missing]
            if len(quoted) == 1:
                names = quoted[0]
            elif len(quoted) == 2:
                names = f"{quoted[0]} and {quoted[1]}"
            else:
                names = ", ".join(quoted[:-1]) + f", and {quoted[-1]}"
            plural = "" if len(missing) == 1 else "s"
            raise TypeError(
                f"{name}.__new__() missing {len(missing)} required positional argument{plural}: {names}"
            )
        object.__setattr__(self, "_values", tuple(values))
        for f, v in zip(fields, values):
            object.__setattr__(self, f, v)

    def __setattr__(self, name, value):
        raise AttributeError("can't set attribute")

    def __delattr__(self, name):
        raise AttributeError("can't delete attribute")

    def __repr__(self):
        inner = ", ".join(f"{f}={v!r}" for f, v in zip(self._fields, self._values))
        return f"{type(self).__name__}({inner})"

    def __len__(self):
        return len(self._values)

    def __iter__(self):
        return iter(self._values)

    def __getitem__(self, i):
        return self._values[i]

    def __contains__(self, x):
        return x in self._values

    def __hash__(self):
        return hash(self._values)

    def _other(self, other):
        if isinstance(other, _NamedTuple):
            return other._values
        if isinstance(other, tuple):
            return other
        return None

    def __eq__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._values == o

    def __ne__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._values != o

    def __lt__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._values < o

    def __le__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._values <= o

    def __gt__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._values > o

    def __ge__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._values >= o

    def __add__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._values + o

    def count(self, x):
        return self._values.count(x)

    def index(self, x):
        return self._values.index(x)

    def _asdict(self):
        return dict(zip(self._fields, self._values))

    def _replace(self, **kwargs):
        values = [kwargs.pop(f, v) for f, v in zip(self._fields, self._values)]
        if kwargs:
            raise ValueError(f"Got unexpected field names: {list(kwargs)!r}")
        return type(self)(*values)

    @classmethod
    def _make(cls, iterable):
        return cls(*iterable)


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    field_names = tuple(map(str, field_names))
    typename = str(typename)
    if rename:
        seen = set()
        fixed = []
        for index, name in enumerate(field_names):
            if (not name.isidentifier() or name in _KEYWORDS or name.startswith("_")
                    or name in seen):
                name = f"_{index}"
            seen.add(name)
            fixed.append(name)
        field_names = tuple(fixed)
    for name in (typename,) + field_names:
        if not name.isidentifier():
            raise ValueError(f"Type names and field names must be valid identifiers: {name!r}")
        if name in _KEYWORDS:
            raise ValueError(f"Type names and field names cannot be a keyword: {name!r}")
    seen = set()
    for name in field_names:
        if name.startswith("_") and not rename:
            raise ValueError(f"Field names cannot start with an underscore: {name!r}")
        if name in seen:
            raise ValueError(f"Encountered duplicate field name: {name!r}")
        seen.add(name)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(field_names):
            raise TypeError("Got more default values than field names")
        field_defaults = dict(zip(field_names[len(field_names) - len(defaults):], defaults))
    ns = {
        "_fields": field_names,
        "_field_defaults": field_defaults,
        "__module__": module if module is not None else "__main__",
    }
    return type(typename, (_NamedTuple,), ns)


class deque:
    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None:
            if not isinstance(maxlen, int):
                raise TypeError("an integer is required")
            if maxlen < 0:
                raise ValueError("maxlen must be non-negative")
        object.__setattr__(self, "_items", [])
        object.__setattr__(self, "_maxlen", maxlen)
        self.extend(iterable)

    @property
    def maxlen(self):
        return self._maxlen

    def _trim_left(self):
        if self._maxlen is not None:
            while len(self._items) > self._maxlen:
                del self._items[0]

    def _trim_right(self):
        if self._maxlen is not None:
            while len(self._items) > self._maxlen:
                self._items.pop()

    def append(self, x):
        self._items.append(x)
        self._trim_left()

    def appendleft(self, x):
        self._items.insert(0, x)
        self._trim_right()

    def extend(self, iterable):
        if iterable is self:
            iterable = list(iterable)
        for x in iterable:
            self.append(x)

    def extendleft(self, iterable):
        if iterable is self:
            iterable = list(iterable)
        for x in iterable:
            self.appendleft(x)

    def pop(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop(0)

    def rotate(self, n=1):
        k = len(self._items)
        if k:
            n %= k
            if n:
                self._items[:] = self._items[-n:] + self._items[:-n]

    def clear(self):
        self._items.clear()

    def copy(self):
        return deque(self._items, self._maxlen)

    def count(self, x):
        return self._items.count(x)

    def index(self, x, *args):
        return self._items.index(x, *args)

    def insert(self, i, x):
        if self._maxlen is not None and len(self._items) >= self._maxlen:
            raise IndexError("deque already at its maximum size")
        self._items.insert(i, x)

    def remove(self, x):
        if x not in self._items:
            raise ValueError(f"{x!r} is not in deque")
        self._items.remove(x)

    def reverse(self):
        self._items.reverse()

    def _index(self, i):
        if not isinstance(i, int):
            raise TypeError(f"sequence index must be integer, not '{type(i).__name__}'")
        if not -len(self._items) <= i < len(self._items):
            raise IndexError("deque index out of range")
        return i

    def __getitem__(self, i):
        return self._items[self._index(i)]

    def __setitem__(self, i, x):
        self._items[self._index(i)] = x

    def __delitem__(self, i):
        del self._items[self._index(i)]

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)

    def __reversed__(self):
        return reversed(self._items)

    def __contains__(self, x):
        return x in self._items

    def __eq__(self, other):
        if isinstance(other, deque):
            return self._items == other._items
        return NotImplemented

    def __add__(self, other):
        if not isinstance(other, deque):
            raise TypeError(
                f'can only concatenate deque (not "{type(other).__name__}") to deque'
            )
        return deque(self._items + other._items, self._maxlen)

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __repr__(self):
        if self._maxlen is None:
            return f"deque({self._items!r})"
        return f"deque({self._items!r}, maxlen={self._maxlen})"


class _DictLike(dict):
    """The dict protocol over `self._d` (the instance's own dict storage)."""

    def __getitem__(self, key):
        return self._d[key]

    def __setitem__(self, key, value):
        self._d[key] = value

    def __delitem__(self, key):
        del self._d[key]

    def __len__(self):
        return len(self._d)

    def __iter__(self):
        return iter(self._d)

    def __reversed__(self):
        return reversed(list(self._d))

    def __contains__(self, key):
        return key in self._d

    def keys(self):
        return self._d.keys()

    def values(self):
        return self._d.values()

    def items(self):
        return self._d.items()

    def get(self, key, default=None):
        return self._d.get(key, default)

    def pop(self, key, *default):
        return self._d.pop(key, *default)

    def popitem(self):
        return self._d.popitem()

    def setdefault(self, key, default=None):
        return self._d.setdefault(key, default)

    def update(self, *args, **kwargs):
        self._d.update(*args, **kwargs)

    def clear(self):
        self._d.clear()

    def __eq__(self, other):
        if isinstance(other, _DictLike):
            return self._d == other._d
        if isinstance(other, dict):
            return self._d == other
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None


class defaultdict(_DictLike):
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError("first argument must be callable or None")
        self.default_factory = default_factory
        self._d = _dict_items_of(self)
        self._d.update(*args, **kwargs)

    def __getitem__(self, key):
        if key in self._d:
            return self._d[key]
        return self.__missing__(key)

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self._d[key] = value
        return value

    def copy(self):
        return defaultdict(self.default_factory, self._d)

    def __repr__(self):
        return f"defaultdict({self.default_factory!r}, {self._d!r})"


class OrderedDict(_DictLike):
    def __init__(self, *args, **kwargs):
        if len(args) > 1:
            raise TypeError(f"expected at most 1 arguments, got {len(args)}")
        self._d = _dict_items_of(self)
        self._d.update(*args, **kwargs)

    def move_to_end(self, key, last=True):
        value = self._d.pop(key)
        if last:
            self._d[key] = value
        else:
            rest = list(self._d.items())
            self._d.clear()
            self._d[key] = value
            self._d.update(rest)

    def popitem(self, last=True):
        if not self._d:
            raise KeyError("dictionary is empty")
        key = next(reversed(list(self._d))) if last else next(iter(self._d))
        return key, self._d.pop(key)

    def copy(self):
        return OrderedDict(self._d)

    def keys(self):
        return _odict_keys(self._d)

    def values(self):
        return _odict_values(self._d)

    def items(self):
        return _odict_items(self._d)

    def __eq__(self, other):
        if isinstance(other, OrderedDict):
            return list(self._d.items()) == list(other._d.items())
        return _DictLike.__eq__(self, other)

    def __repr__(self):
        if not self._d:
            return "OrderedDict()"
        return f"OrderedDict({list(self._d.items())!r})"


class Counter(_DictLike):
    def __init__(self, iterable=None, /, **kwds):
        self._d = _dict_items_of(self)
        self.update(iterable, **kwds)

    def __getitem__(self, key):
        return self._d.get(key, 0)

    def __delitem__(self, key):
        if key in self._d:
            del self._d[key]

    def __missing__(self, key):
        return 0

    def total(self):
        return sum(self._d.values())

    def most_common(self, n=None):
        items = sorted(self._d.items(), key=_count_of, reverse=True)
        return items if n is None else items[:n]

    def elements(self):
        for elem, count in self._d.items():
            for _ in range(count):
                yield elem

    def update(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, (dict, _DictLike)):
                for elem, count in iterable.items():
                    self._d[elem] = self._d.get(elem, 0) + count
            else:
                for elem in iterable:
                    self._d[elem] = self._d.get(elem, 0) + 1
        if kwds:
            self.update(kwds)

    def subtract(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, (dict, _DictLike)):
                for elem, count in iterable.items():
                    self._d[elem] = self._d.get(elem, 0) - count
            else:
                for elem in iterable:
                    self._d[elem] = self._d.get(elem, 0) - 1
        if kwds:
            self.subtract(kwds)

    def copy(self):
        return Counter(self._d)

    def __eq__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return all(self[e] == other[e] for c in (self, other) for e in c._d)

    def __add__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self._merged(other, lambda count, theirs: count + theirs, _positive_count)

    def __sub__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self._merged(other, lambda count, theirs: count - theirs, _negated_negative_count)

    def __or__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self._merged(other, max, _positive_count)

    def __and__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self._merged(other, min, None)

    def __pos__(self):
        return self._kept(_positive_count)

    def __neg__(self):
        return self._kept(_negated_negative_count)

    def _merged(self, other, combine, other_only):
        """CPython's Counter arithmetic: each of self's elements with `combine(count,
        other[elem])` where that is positive, then each element only `other` has, with
        `other_only(count)` where that is not None (`other_only` None: none of them)."""
        result = Counter()
        for elem, count in self._d.items():
            newcount = combine(count, other[elem])
            if newcount > 0:
                result._d[elem] = newcount
        if other_only is not None:
            for elem, count in other._d.items():
                if elem not in self._d:
                    result._put(elem, other_only(count))
        return result

    def _kept(self, new_count):
        """The elements whose `new_count(count)` is not None, with that count (unary + and -)."""
        result = Counter()
        for elem, count in self._d.items():
            result._put(elem, new_count(count))
        return result

    def _put(self, elem, count):
        if count is not None:
            self._d[elem] = count

    def __repr__(self):
        if not self._d:
            return "Counter()"
        return f"Counter({dict(self.most_common())!r})"


def _count_of(item):
    return item[1]


def _positive_count(count):
    """A count unary + keeps (None: dropped), the test CPython's Counter makes."""
    return count if count > 0 else None


def _negated_negative_count(count):
    """A count unary - keeps, negated (None: dropped), the test CPython's Counter makes."""
    return 0 - count if count < 0 else None
