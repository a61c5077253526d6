# 100 000 inserts of str keys (made beforehand) into a fresh dict (interpreter).
keys = [str(i) for i in range(100000)]


def step():
    d = {}
    for k in keys:
        d[k] = 1
    return d
