# 100 000 inserts of int keys into a fresh dict (interpreter).


def step():
    d = {}
    for i in range(100000):
        d[i] = i
    return d
