xs = [10, 20, 30]
print(xs[2], xs[-3])
print(xs[3])
