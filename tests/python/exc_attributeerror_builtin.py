xs = [1, 2, 3]
xs.append(4)
print(xs)
xs.push(5)
