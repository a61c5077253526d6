# expect: RecursionError: maximum recursion depth exceeded in comparison
# Two list chains a million deep each, compared with ==.
a = []
b = []
for _ in range(10**6):
    a = [a]
    b = [b]
print(a == b)
