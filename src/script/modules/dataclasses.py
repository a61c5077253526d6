# dataclasses: @dataclass (init, repr, eq, order, frozen), field(), fields(), asdict(),
# astuple(), replace(), is_dataclass() -- the generated methods behave as CPython's.


class _MissingType:
    def __repr__(self):
        return 'MISSING'


MISSING = _MissingType()


class FrozenInstanceError(AttributeError):
    pass


class Field:
    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = metadata if metadata is not None else {}
        self.kw_only = kw_only

    def __repr__(self):
        return (f'Field(name={self.name!r},type={self.type!r},default={self.default!r},'
                f'default_factory={self.default_factory!r},init={self.init!r},'
                f'repr={self.repr!r},hash={self.hash!r},compare={self.compare!r},'
                f'metadata={self.metadata!r},kw_only={self.kw_only!r},_field_type=_FIELD)')


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None,
          compare=True, metadata=None, kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def _is_mutable_default(v):
    return type(v) in (list, dict, set)


def _collect(cls):
    fields = {}
    for base in reversed(cls.__mro__[1:]):
        fs = base.__dict__.get('__dataclass_fields__')
        if fs:
            for f in fs.values():
                fields[f.name] = f
    ann = cls.__dict__.get('__annotations__', {})
    for name, typ in ann.items():
        default = cls.__dict__.get(name, MISSING)
        if isinstance(default, Field):
            f = default
        else:
            if _is_mutable_default(default):
                raise ValueError(f'mutable default {type(default)} for field {name} is not '
                                 f'allowed: use default_factory')
            f = field(default=default)
        f.name = name
        f.type = typ
        fields[name] = f
        if isinstance(default, Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    return fields


def _process(cls, init, repr, eq, order, frozen):
    fields = _collect(cls)
    cls.__dataclass_fields__ = fields
    flist = list(fields.values())
    if init:
        seen_default = False
        for f in flist:
            if not f.init:
                continue
            has_default = f.default is not MISSING or f.default_factory is not MISSING
            if seen_default and not has_default:
                raise TypeError(f"non-default argument '{f.name}' follows default argument")
            seen_default = seen_default or has_default
        _add_init(cls, flist, frozen)
    if repr and '__repr__' not in cls.__dict__:
        def __repr__(self):
            parts = ', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in flist if f.repr)
            return f'{type(self).__qualname__}({parts})'
        cls.__repr__ = __repr__
    if eq and '__eq__' not in cls.__dict__:
        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return _cmp_tuple(self, flist) == _cmp_tuple(other, flist)
            return NotImplemented
        cls.__eq__ = __eq__
        if not frozen and '__hash__' not in cls.__dict__:
            cls.__hash__ = None
    if frozen:
        def __setattr__(self, name, value):
            raise FrozenInstanceError(f"cannot assign to field '{name}'")

        def __delattr__(self, name):
            raise FrozenInstanceError(f"cannot delete field '{name}'")
        cls.__setattr__ = __setattr__
        cls.__delattr__ = __delattr__
        if eq:
            def __hash__(self):
                return hash(_cmp_tuple(self, flist))
            cls.__hash__ = __hash__
    if order:
        def make(op):
            def cmp(self, other):
                if other.__class__ is self.__class__:
                    return op(_cmp_tuple(self, flist), _cmp_tuple(other, flist))
                return NotImplemented
            return cmp
        cls.__lt__ = make(lambda a, b: a < b)
        cls.__le__ = make(lambda a, b: a <= b)
        cls.__gt__ = make(lambda a, b: a > b)
        cls.__ge__ = make(lambda a, b: a >= b)
    return cls


def _cmp_tuple(obj, flist):
    return tuple(getattr(obj, f.name) for f in flist if f.compare)


def _add_init(cls, flist, frozen):
    params = [f for f in flist if f.init]
    names = [f.name for f in params]
    qual = cls.__qualname__

    def __init__(self, *args, **kwargs):
        if len(args) > len(params):
            lo = 1 + sum(1 for f in params
                         if f.default is MISSING and f.default_factory is MISSING)
            hi = len(params) + 1
            takes = f'{hi}' if lo == hi else f'from {lo} to {hi}'
            raise TypeError(f'{qual}.__init__() takes {takes} positional arguments '
                            f'but {len(args) + 1} were given')
        values = {}
        for f, v in zip(params, args):
            values[f.name] = v
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"{qual}.__init__() got an unexpected keyword argument '{k}'")
            if k in values:
                raise TypeError(f"{qual}.__init__() got multiple values for argument '{k}'")
            values[k] = v
        missing = [n for n in names if n not in values and
                   fields_default(cls, n) is MISSING]
        if missing:
            if len(missing) == 1:
                what = f"argument: '{missing[0]}'"
            else:
                quoted = [f"'{m}'" for m in missing]
                what = ('arguments: ' + ', '.join(quoted[:-1]) +
                        (',' if len(quoted) > 2 else '') + ' and ' + quoted[-1])
            raise TypeError(f'{qual}.__init__() missing {len(missing)} required positional {what}')
        for f in flist:
            if f.name in values:
                v = values[f.name]
            elif f.default_factory is not MISSING:
                v = f.default_factory()
            elif f.default is not MISSING:
                v = f.default
            else:
                continue
            object.__setattr__(self, f.name, v)
        post = getattr(self, '__post_init__', None)
        if post is not None:
            post()
    __init__.__qualname__ = qual + '.__init__'
    cls.__init__ = __init__


def fields_default(cls, name):
    f = cls.__dataclass_fields__[name]
    if f.default is not MISSING or f.default_factory is not MISSING:
        return f
    return MISSING


def dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False,
              frozen=False, match_args=True, kw_only=False, slots=False):
    def wrap(c):
        return _process(c, init, repr, eq, order, frozen)
    if cls is None:
        return wrap
    return wrap(cls)


def is_dataclass(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, '__dataclass_fields__')


def fields(class_or_instance):
    try:
        fs = class_or_instance.__dataclass_fields__
    except AttributeError:
        raise TypeError('must be called with a dataclass type or instance') from None
    return tuple(fs.values())


def _asdict(obj, factory):
    if hasattr(type(obj), '__dataclass_fields__'):
        return factory([(f.name, _asdict(getattr(obj, f.name), factory)) for f in fields(obj)])
    if isinstance(obj, tuple) and hasattr(obj, '_fields'):
        return type(obj)(*[_asdict(v, factory) for v in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)(_asdict(v, factory) for v in obj)
    if isinstance(obj, dict):
        return type(obj)((_asdict(k, factory), _asdict(v, factory)) for k, v in obj.items())
    return obj


def asdict(obj, *, dict_factory=dict):
    if not hasattr(type(obj), '__dataclass_fields__'):
        raise TypeError('asdict() should be called on dataclass instances')
    return _asdict(obj, dict_factory)


def astuple(obj, *, tuple_factory=tuple):
    if not hasattr(type(obj), '__dataclass_fields__'):
        raise TypeError('astuple() should be called on dataclass instances')
    return tuple_factory([_asdict(getattr(obj, f.name), dict) for f in fields(obj)])


def replace(obj, /, **changes):
    for f in fields(obj):
        if f.init and f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)
