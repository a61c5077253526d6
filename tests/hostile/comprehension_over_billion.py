# expect: TimeoutError: the script ran more than 20000000 steps (line 4)
# env: ARGS=--time-limit 60
# (a wide wall limit: the step or depth limit must be what stops it, also on a loaded machine)
squares = [i * i for i in range(10**9)]
