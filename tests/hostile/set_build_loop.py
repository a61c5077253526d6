# expect: TimeoutError: the script ran longer than 10 seconds (line 4)
xs = list(range(10**6))
while True:
    s = set(xs)
