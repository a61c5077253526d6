d = {"a": 1, "b": 2}
d["c"] = 3
print(d)
print(d["a"], d.get("z"), d.get("z", 0))
print(list(d.keys()), list(d.values()), list(d.items()))
print("a" in d, "z" in d, len(d))
del d["b"]
print(d)
print(d.pop("a"), d)
d.update({"x": 10, "c": 30})
print(d)
print(d.setdefault("y", []), d)
