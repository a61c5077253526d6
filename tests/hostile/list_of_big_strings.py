# expect: MemoryError
keep = []
while True:
    keep.append('y' * 10**7)
