a, b = 1, 2
a, b = b, a
print(a, b)
(x, y), z = (3, 4), 5
print(x, y, z)
for i, (k, v) in enumerate({"p": 1, "q": 2}.items()):
    print(i, k, v)
first, second = "hi"
print(first, second)
m = n = 7
print(m, n)
