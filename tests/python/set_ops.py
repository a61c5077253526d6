a = {1, 2, 3, 4}
b = {3, 4, 5}
print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b))
print(3 in a, 9 in a)
a.add(10)
a.discard(1)
print(sorted(a), len(a))
print({1, 2} <= {1, 2, 3}, {1, 2} < {1, 2}, {1, 2}.issubset({2, 1}))
print(set(), sorted(set("hello")))
print({x % 3 for x in range(10)})
print(len({1, 1.0, True}))
