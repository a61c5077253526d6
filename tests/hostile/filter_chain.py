# expect: RecursionError: maximum recursion depth exceeded
# A million nested filter() objects, then consumed (CPython 3.11 crashes here).
it = iter([1, 2, 3])
for _ in range(10**6):
    it = filter(None, it)
print(list(it))
