d = {}
print(d["k"])
