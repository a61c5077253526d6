# expect: MemoryError
# env: ARGS=--time-limit 120
s = 'x'
while True:
    s += s
