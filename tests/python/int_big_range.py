# range() with bounds past 64 bits: repr, indexing, iteration, membership, len's OverflowError
r = range(10 ** 20)
print(r, r[5], r[-1], r[10 ** 19], r.start, r.stop, r.step, bool(r), 10 ** 19 in r, 10 ** 20 in r, -1 in r)
print(list(range(2 ** 63 - 2, 2 ** 63 + 3)), list(range(-(2 ** 63) + 1, -(2 ** 63) - 3, -1)))
print([x * 2 for x in range(2 ** 64, 2 ** 64 + 10, 3)], sum(range(2 ** 70, 2 ** 70 + 5)))
for i in range(2 ** 80, 2 ** 90, 2 ** 88):
    print(i, type(i).__name__)
b = range(-(10 ** 30), 10 ** 30, 7 * 10 ** 28)
print(b, len(b), b[3], b[-2], b.index(-(10 ** 30) + 14 * 10 ** 28), b.count(5), 10 ** 30 - 7 * 10 ** 28 in b)
print(range(0, 2 ** 70)[2 ** 69], range(2 ** 64) == range(0, 2 ** 64, 1), range(2 ** 64, 0) == range(0), list(range(2 ** 64, 2 ** 64 - 3, -1)))
it = iter(range(2 ** 100, 2 ** 100 + 2))
print(next(it), next(it), next(it, "done"))
print(list(reversed(range(2 ** 64, 2 ** 64 + 3))), sorted(range(2 ** 65, 2 ** 65 - 3, -1)), range(2 ** 64)[2:5])
for k in [10 ** 20, -(10 ** 20) - 1]:
    try:
        print(range(10 ** 20)[k])
    except IndexError as e:
        print("IndexError:", e)
try:
    print(range(10)[10 ** 20])
except IndexError as e:
    print("IndexError:", e)
for s in [slice(None), slice(2, 5), slice(5, 2), slice(None, None, -1), slice(-3, None), slice(-100, 100, 3), slice(8, -100, -2), slice(3, 3), slice(100, None, -1), slice(-10 ** 20, 10 ** 20, 2 ** 40)]:
    print(range(10)[s], range(3, 50, 7)[s], list(range(20, 0, -3)[s]), range(2 ** 64, 2 ** 66, 2 ** 61)[s])
print(range(0, 2 ** 100) == range(0, 2 ** 100 + 1), range(0, 2 ** 100) == range(0, 2 ** 100), range(2 ** 70, 2 ** 70 + 1) == range(2 ** 70, 2 ** 71, 2 ** 69))
print(len(range(2 ** 63 - 1)))
print(len(range(2 ** 63)))
