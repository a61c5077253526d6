# expect: RecursionError: maximum recursion depth exceeded in comparison
# env: ARGS=--time-limit 60
# (a wide wall limit: the step or depth limit must be what stops it, also on a loaded machine)
# Two dict chains a million deep each, compared with ==.
a = {}
b = {}
for _ in range(10**6):
    a = {'k': a}
    b = {'k': b}
print(a == b)
