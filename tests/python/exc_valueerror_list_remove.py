xs = [1, 2, 3]
xs.remove(2)
print(xs)
xs.remove(9)
