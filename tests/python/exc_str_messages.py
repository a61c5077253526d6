cases = [lambda: 1 / 0, lambda: [1][5], lambda: {}["x"], lambda: int("4.5"), lambda: None.foo, lambda: "a" + 1, lambda: undefined_name, lambda: 1 % 0, lambda: float("abc"), lambda: [].pop(), lambda: (1, 2).index(9)]
for c in cases:
    try:
        c()
    except Exception as e:
        print(type(e).__name__ + ":", e)
