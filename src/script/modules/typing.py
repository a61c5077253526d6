# typing: the names annotations use, subscriptable and printable as CPython prints them
# (`typing.List[int]`). Nothing is checked at run time, as in CPython.

TYPE_CHECKING = False


def _type_repr(obj):
    if isinstance(obj, type):
        if obj.__module__ == "builtins":
            return obj.__qualname__
        return f"{obj.__module__}.{obj.__qualname__}"
    if obj is ...:
        return "..."
    if obj is None or obj is type(None):
        return "None"
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(_type_repr(a) for a in obj) + "]"
    return repr(obj)


class _Alias:
    def __init__(self, name, args=None):
        self._name = name
        self.__args__ = args

    def __getitem__(self, params):
        if self.__args__ is not None:
            raise TypeError(f"{self!r} is not a generic class")
        if not isinstance(params, tuple):
            params = (params,)
        if self._name == "Optional":
            return _Alias("Optional", params)
        return _Alias(self._name, params)

    def __call__(self, *args, **kwargs):
        raise TypeError(f"Type {self._name} cannot be instantiated; use {self._name.lower()}() instead")

    def __or__(self, other):
        return _Alias("Union", (self, other))

    def __ror__(self, other):
        return _Alias("Union", (other, self))

    def __repr__(self):
        if self.__args__ is None:
            return f"typing.{self._name}"
        return f"typing.{self._name}[{', '.join(_type_repr(a) for a in self.__args__)}]"

    def __eq__(self, other):
        if not isinstance(other, _Alias):
            return NotImplemented
        return self._name == other._name and self.__args__ == other.__args__

    def __hash__(self):
        return hash((self._name, self.__args__))


Any = _Alias("Any")
Union = _Alias("Union")
Optional = _Alias("Optional")
List = _Alias("List")
Dict = _Alias("Dict")
Tuple = _Alias("Tuple")
Set = _Alias("Set")
FrozenSet = _Alias("FrozenSet")
Callable = _Alias("Callable")
Iterable = _Alias("Iterable")
Iterator = _Alias("Iterator")
Generator = _Alias("Generator")
Sequence = _Alias("Sequence")
Mapping = _Alias("Mapping")
MutableMapping = _Alias("MutableMapping")
Type = _Alias("Type")
Literal = _Alias("Literal")
Final = _Alias("Final")
ClassVar = _Alias("ClassVar")
Annotated = _Alias("Annotated")
Deque = _Alias("Deque")
DefaultDict = _Alias("DefaultDict")
Counter = _Alias("Counter")
OrderedDict = _Alias("OrderedDict")
NoReturn = _Alias("NoReturn")


class TypeVar:
    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        self.__name__ = name
        self.__constraints__ = constraints
        self.__bound__ = bound
        self.__covariant__ = covariant
        self.__contravariant__ = contravariant

    def __repr__(self):
        prefix = "+" if self.__covariant__ else "-" if self.__contravariant__ else "~"
        return prefix + self.__name__


def cast(typ, val):
    return val


def overload(func):
    return func


def final(f):
    return f


def no_type_check(f):
    return f


def NewType(name, tp):
    def new_type(x):
        return x

    new_type.__name__ = name
    new_type.__supertype__ = tp
    return new_type


def get_type_hints(obj):
    return dict(getattr(obj, "__annotations__", {}))
