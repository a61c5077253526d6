def f():
    x, y = None
f()
