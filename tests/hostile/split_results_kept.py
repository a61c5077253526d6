# expect: MemoryError
# env: ARGS=--time-limit 120
s = 'ab ' * (7 * 10**6)
keep = []
while True:
    keep.append(s.split())
