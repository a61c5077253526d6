def find(x):
    if x > 0:
        return "found"
r = find(-1)
print(r)
r.upper()
