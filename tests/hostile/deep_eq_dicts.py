# expect: RecursionError: maximum recursion depth exceeded in comparison
# Two dict chains a million deep each, compared with ==.
a = {}
b = {}
for _ in range(10**6):
    a = {'k': a}
    b = {'k': b}
print(a == b)
