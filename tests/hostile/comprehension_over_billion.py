# expect: TimeoutError: the script ran more than 20000000 steps (line 2)
squares = [i * i for i in range(10**9)]
