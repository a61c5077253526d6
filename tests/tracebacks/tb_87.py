vals = (1 / x for x in [2, 0])
total = 0
for v in vals:
    total += v
