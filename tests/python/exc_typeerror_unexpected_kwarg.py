def f(a, b=1):
    return a + b
print(f(1, b=2))
f(1, c=3)
