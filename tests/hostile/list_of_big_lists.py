# expect: MemoryError
# env: ARGS=--time-limit 120
keep = []
while True:
    keep.append([0] * (5 * 10**7))
