print(1 < 2)
print(sorted([3, 1]))
print(1 < "a")
