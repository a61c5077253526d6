def add(x, acc=[]):
    acc.append(x)
    return acc
print(add(1))
print(add(2))
print(add(3, []))
print(add(4))
