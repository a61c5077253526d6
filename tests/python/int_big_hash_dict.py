# hash() of big ints equals CPython's (mod 2**61 - 1), so dicts, sets and their order match
vals = [2 ** 61 - 1, 2 ** 61, 2 ** 61 + 1, 2 ** 64, -(2 ** 64), 10 ** 30, -(10 ** 30), 2 ** 122 - 1, 3 ** 100, -(2 ** 61) + 1, 2 ** 63, -(2 ** 63)]
for v in vals:
    print(v, hash(v), hash(-v), hash(v) == hash(float(v)) if v < 2 ** 1000 else None)
print(hash(1e20), hash(2.0 ** 64), hash(-1.5e30), hash(2 ** 64) == hash(2.0 ** 64), hash((2 ** 70, 1)))
d = {2 ** 64: "a", 1e20: "b", 10 ** 20: "c", 2 ** 63: "d", 9223372036854775808.0: "e", -(2 ** 100): "f", (2 ** 70, 3): "g"}
print(d, len(d))
print(d[2.0 ** 64], d[100000000000000000000], d[-(2 ** 100)], d[(2 ** 70, 3)], 2 ** 64 in d, 2 ** 64 + 1 in d)
s = {2 ** 64, 2 ** 65, 1, 2 ** 63, 10 ** 20, 3, -(2 ** 70), 2 ** 61, 2 ** 61 - 1, 7}
print(s)
print({2 ** 64, 2.0 ** 64, 18446744073709551616}, {10 ** 20 + i for i in range(10)})
print(sorted(s), max(s), min(s), sum(s))
s.discard(2 ** 65)
s.add(2 ** 66)
print(s, 2 ** 66 in s, 2 ** 65 in s)
counts = {}
for i in range(30):
    k = (i % 5) * 2 ** 64
    counts[k] = counts.get(k, 0) + 1
print(counts)
print(list({2 ** 100: 1, 2 ** 100 + 0.0: 2}.items()), {2 ** 80: 1} == {2.0 ** 80: 1})
print(set([2 ** 64 + i for i in range(0, 40, 3)]))
