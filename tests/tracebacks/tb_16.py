def f(a):
    return a[0][1]
f([[1]])
