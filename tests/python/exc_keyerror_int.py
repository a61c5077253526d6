d = {1: "one"}
print(d[1])
d[2]
