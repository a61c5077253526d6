def echo():
    x = yield
    print(x)


e = echo()
e.send(5)
