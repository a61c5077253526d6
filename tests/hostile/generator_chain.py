# expect: RecursionError: maximum recursion depth exceeded
# 100 000 generators each iterating the previous one (CPython 3.11 crashes here).
def passthrough(it):
    for x in it:
        yield x


it = iter([1, 2, 3])
for _ in range(10**5):
    it = passthrough(it)
print(list(it))
