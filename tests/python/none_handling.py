x = None
print(x is None, x is not None, x == None)
print(repr(None), str(None))
def maybe(v):
    return v if v > 0 else None
print([maybe(v) for v in [1, -1, 2]])
print([v for v in [maybe(3), None] if v is not None])
d = {"a": None}
print(d.get("a", "dflt"), d.get("b", "dflt"))
