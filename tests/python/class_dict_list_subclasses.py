# Subclasses of the builtin dict and list: instances are dicts/lists, builtin methods act on
# their items, overrides are honoured where CPython honours them and bypassed where it does.


class AttrDict(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        self[name] = value


cfg = AttrDict(lr=0.1, epochs=3)
cfg.batch = 32
print(cfg.lr, cfg.epochs, cfg["batch"], len(cfg))
print(cfg, repr(cfg), str(cfg))
print(type(cfg).__name__, type(cfg) is AttrDict, isinstance(cfg, dict), issubclass(AttrDict, dict))
print(AttrDict.__mro__)
print(sorted(cfg), list(cfg.keys()), list(cfg.values()), list(cfg.items()))
print("lr" in cfg, "nope" in cfg, cfg.get("nope", 7), bool(cfg), bool(AttrDict()))
print(cfg == {"lr": 0.1, "epochs": 3, "batch": 32}, cfg != {}, {} == AttrDict())
print(dict(cfg), {**cfg, "extra": 1}, type(dict(cfg)).__name__)
try:
    cfg.missing
except AttributeError as e:
    print("AttributeError", e)
try:
    hash(cfg)
except TypeError as e:
    print("TypeError", e)


class Logged(dict):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.log = []

    def __setitem__(self, key, value):
        self.log.append(key)
        super().__setitem__(key, value)


d = Logged({"a": 1}, b=2)
d["c"] = 3
d.update(e=5)            # dict.update does not call an overridden __setitem__
d.setdefault("f", 6)
print(d, d.log, vars(d))
c = d.copy()
print(type(c).__name__, c)
print(d.pop("a"), d.popitem(), d)
del d["b"]
print(d, len(d))
dict.__setitem__(d, "g", 7)
print(d, d.log)


class Counts(dict):
    def __missing__(self, key):
        return 0


counts = Counts()
for w in "the cat and the hat".split():
    counts[w] = counts[w] + 1
print(counts, counts["dog"], counts.get("dog"), "dog" in counts)
print(counts.__getitem__("zebra"), dict.__getitem__(counts, "the"))
try:
    counts.pop("dog")
except KeyError as e:
    print("KeyError", e)


class Auto(dict):
    def __missing__(self, key):
        value = self[key] = Auto()
        return value


tree = Auto()
tree["a"]["b"]["c"] = 1
print(tree, type(tree["a"]).__name__)


class Shown(dict):
    def __repr__(self):
        return f"Shown({dict.__repr__(self)})"


s = Shown(x=1)
print(s, [s], {"k": s}, f"{s}")
merged = s | {"y": 2}
print(type(merged).__name__, merged)
s |= {"z": 3}
print(type(s).__name__, s)
print(list(reversed(s)))


class Stack(list):
    def push(self, x):
        self.append(x)

    def peek(self):
        return self[-1]


st = Stack([1, 2])
st.push(3)
print(st, st.peek(), len(st), type(st).__name__, isinstance(st, list))
st += [4, 5]
print(type(st).__name__, st)
print(type(st + [6]).__name__, st + [6], [0] + st, type(st * 2).__name__, st[1:3], type(st[1:3]).__name__)
st.extend(st)
print(st)
st.sort(reverse=True)
print(st, st.index(5), st.count(5), sorted(st)[:3], list(reversed(st))[:2])
print(st == [5, 5, 4, 4, 3, 3, 2, 2, 1, 1], st < [6], Stack() == [], bool(Stack()))
st[0] = 50
del st[1]
st[1:3] = ["a"]
print(st, st.pop(), st.copy(), type(st.copy()).__name__)
print(sum(Stack([1, 2, 3])), max(Stack([4, 9, 2])), "-".join(Stack(["a", "b"])))
print(*Stack([7, 8]))


class Clipped(list):
    def __init__(self, items, limit):
        super().__init__(min(x, limit) for x in items)
        self.limit = limit

    def append(self, x):
        super().append(min(x, self.limit))

    def __getitem__(self, i):
        return ("item", list.__getitem__(self, i))


c = Clipped([1, 5, 9], 4)
c.append(10)
c.extend([10])           # list.extend does not call an overridden append
print(c, c.limit, c[0], list(c), [x for x in c])


class Empty(list):
    pass


e = Empty()
list.__init__(e, range(3))
print(e, Empty("ab"), Empty.__bases__)
Empty.append(e, 9)
print(e)
try:
    Empty(1, 2)
except TypeError as err:
    print("TypeError", err)
try:
    class Both(dict, list):
        pass
except TypeError as err:
    print("TypeError", err)


class Sub(Logged):
    pass


sub = Sub(k=1)
sub["m"] = 2
print(sub, sub.log, isinstance(sub, Logged), isinstance(sub, dict))
print(Counts.fromkeys("ab", 1), type(Counts.fromkeys("ab")).__name__)
