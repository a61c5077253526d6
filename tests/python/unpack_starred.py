first, *rest = [1, 2, 3, 4]
print(first, rest)
*init, last = "abcd"
print(init, last)
a, *mid, b = range(6)
print(a, mid, b)
x, *y = [1]
print(x, y)
print(*[1, 2, 3])
print([*"ab", *[1, 2]])
print((*range(3), 9))
def f(a, b, c):
    return a * 100 + b * 10 + c
print(f(*[1, 2], 3), f(**{"c": 1, "a": 2, "b": 3}))
