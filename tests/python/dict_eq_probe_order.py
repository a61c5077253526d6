# Which key's __eq__ a dict lookup calls, in what order and how often: the stored key's
# (`stored == new`), for every key with the same hash on the new key's probe, as CPython's
# lookdict. Hashes 0, 8 and 16 all start at slot 0 of an 8-slot table.
log = []


class K:
    def __init__(self, name, h):
        self.name, self.h = name, h

    def __hash__(self):
        return self.h

    def __eq__(self, other):
        log.append(f"{self.name}=={other.name}")
        return self.name == other.name


d = {}
for i, h in enumerate([0, 8, 16, 0, 8, 0]):
    d[K(f"k{i}", h)] = i
print(log)
log.clear()
print(d[K("k3", 0)], log)
log.clear()
print(K("zz", 0) in d, log)
log.clear()
k5 = next(k for k in d if k.name == "k5")
print(d[k5], log)
log.clear()
d[K("k0", 0)] = "again"
print(len(d), d[next(iter(d))], log)
log.clear()
del d[K("k3", 0)]
print(len(d), log)
