# expect: MemoryError
s = 'x' * 10**10
