def f():
    raise ValueError("a")
y = f() + 1
