values = [4, 2, 0]
for v in values:
    print(12 // v)
