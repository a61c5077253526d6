# expect: MemoryError
keep = []
while True:
    keep.append([0] * (5 * 10**7))
