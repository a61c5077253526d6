# expect: MemoryError
# env: ARGS=--time-limit 120
# Every started generator holds a stack; keeping them all runs into the memory budget.
keep = []
while True:
    g = (i for i in range(10))
    next(g)
    keep.append(g)
