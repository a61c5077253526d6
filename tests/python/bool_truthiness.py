vals = [0, 1, -1, 0.0, 0.1, "", "a", [], [0], {}, {"a": 1}, (), set(), None, True, False]
for v in vals:
    print(repr(v), bool(v))
print(True + True, True * 3)
print(sum([True, False, True]))
