# expect: TimeoutError: the script ran longer than 10 seconds (line 4)
x = [0] * 10**7
while True:
    y = x[:]
