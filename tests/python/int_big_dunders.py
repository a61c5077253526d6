# big ints returned from __hash__ / __len__, and int() with a big base
class H:
    def __init__(self, h):
        self.h = h
    def __hash__(self):
        return self.h
    def __eq__(self, other):
        return self is other
for h in [2 ** 64, -(2 ** 64), 2 ** 61 - 1, 10 ** 30, -(2 ** 61) - 2]:
    print(hash(H(h)))
class L:
    def __len__(self):
        return 2 ** 64
for f in [lambda: len(L()), lambda: int("5", 2 ** 64), lambda: int("5", -(2 ** 64)), lambda: [1, 2, 3][2 ** 64], lambda: range(10)[2 ** 64], lambda: "ab" * 2 ** 64]:
    try:
        print(f())
    except (OverflowError, ValueError, IndexError, TypeError) as e:
        print(type(e).__name__ + ":", e)
print(range(2 ** 70))
for f in [lambda: [1] * -(2 ** 70), lambda: (1,) * 2 ** 64, lambda: 2 ** 64 * "x"]:
    try:
        print(f())
    except OverflowError as e:
        print("OverflowError:", e)
print(len(L()))
