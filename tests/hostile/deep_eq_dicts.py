# expect: RecursionError: maximum recursion depth exceeded in comparison
# Two million-deep dict chains compared with == (two million levels each).
a = {}
b = {}
for _ in range(2 * 10**6):
    a = {'k': a}
    b = {'k': b}
print(a == b)
