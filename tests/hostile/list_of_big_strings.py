# expect: MemoryError
# env: ARGS=--time-limit 120
keep = []
while True:
    keep.append('y' * 10**7)
