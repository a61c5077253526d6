# expect: MemoryError
# env: ARGS=--time-limit 60 --memory-limit 256MiB
# (a wide wall limit and a small budget: the memory budget must be what stops it, also on a
# loaded machine; the step limit scales with the wall limit and no longer cuts it first)
squares = [i * i for i in range(10**9)]
