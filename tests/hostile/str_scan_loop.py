# expect: TimeoutError: the script ran longer than 10 seconds (line 3)
s = 'ab' * 10**7
while s.count('c') == 0:
    pass
