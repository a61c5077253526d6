# Building a string with `s += str(i)`, 100 000 times (interpreter).


def step():
    s = ""
    for i in range(100000):
        s += str(i)
    return s
