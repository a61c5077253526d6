xs = list(range(10))
print(xs[2:7:2])
xs[1:3] = ["a", "b", "c"]
print(xs)
del xs[0]
print(xs)
del xs[::3]
print(xs)
ys = xs[:]
ys[0] = "changed"
print(xs[0], ys[0])
xs[:] = []
print(xs)
