x = 10
def f():
    x += 1
f()
