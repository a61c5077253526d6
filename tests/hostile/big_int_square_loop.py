# expect: TimeoutError: the script ran longer than 10 seconds (line 4)
x = 7 ** 150000
while True:
    y = x * x
