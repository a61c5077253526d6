def f(*args, **kwargs):
    print(args, kwargs)
f()
f(1, 2)
f(a=1)
f(1, b=2, c=3)
def g(a, b=2, *rest, key=None, **opts):
    return (a, b, rest, key, opts)
print(g(1))
print(g(1, 3, 4, 5, key="k", z=0))
print(g(*range(4), **{"key": 1}))
