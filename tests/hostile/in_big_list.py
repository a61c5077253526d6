# expect: TimeoutError: the script ran longer than 10 seconds (line 3)
big = list(range(10**7))
while -1 not in big:
    pass
