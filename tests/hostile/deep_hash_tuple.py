# expect: RecursionError: maximum recursion depth exceeded
# CPython 3.11 crashes here (its tuple hash does not check the recursion depth).
x = ()
for _ in range(10**6):
    x = (x,)
print(hash(x))
