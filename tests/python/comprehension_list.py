print([x for x in range(10) if x % 3 == 0])
print([(x, y) for x in range(3) for y in range(x)])
print([x if x > 0 else 0 for x in [-2, 3, -1, 5]])
matrix = [[1, 2, 3], [4, 5, 6]]
print([[row[i] for row in matrix] for i in range(3)])
print([c.upper() for c in "abc"])
print([len(w) for w in "a bb ccc".split()])
x = 100
print([x for x in range(3)], x)
