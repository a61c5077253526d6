x = 10
del x
data = [1, 2, 3, 4]
del data[1]
print(data)
d = {"a": 1, "b": 2}
del d["a"]
print(d)
a, b = 1, 2
del a, b
for _ in range(2):
    pass
print("done")
