# expect: TimeoutError: the script ran longer than 10 seconds (line 2)
print(all(range(1, 10**15)))
