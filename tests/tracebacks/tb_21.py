def f():
    raise ValueError("a")
f()
