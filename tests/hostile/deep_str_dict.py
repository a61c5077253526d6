# expect: RecursionError: maximum recursion depth exceeded while getting the repr of an object
x = {}
for _ in range(10**6):
    x = {1: x}
print(str(x))
