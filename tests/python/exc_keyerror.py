d = {"a": 1, "b": 2}
print(d["a"])
print(d["c"])
