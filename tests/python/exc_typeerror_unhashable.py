s = {1, 2}
print(len(s))
s.add([3])
