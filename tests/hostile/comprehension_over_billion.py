# expect: MemoryError
# env: ARGS=--time-limit 60
# (a wide wall limit: the list's size limit must be what stops it, also on a loaded machine)
squares = [i * i for i in range(10**9)]
