grid = [[0] * 3 for _ in range(3)]
grid[1][1] = 5
print(grid)
bad = [[0] * 2] * 2
bad[0][0] = 9
print(bad)
a = [1, [2, 3]]
b = a.copy()
b[1].append(4)
print(a, b)
print([1, 2] + [3], [0] * 4)
print([1, 2, 3] == [1, 2, 3], [] == [])
