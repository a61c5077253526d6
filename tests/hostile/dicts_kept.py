# expect: MemoryError
keep = []
while True:
    keep.append(dict.fromkeys(range(10**6)))
