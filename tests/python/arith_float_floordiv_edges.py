# float // and % at the edges (signed zeros, infinities, huge and tiny operands, big ints), and
# bitwise operators refusing floats before any int-to-float conversion (10**400 | 1.5)
vals = [7.0, -7.0, 2.5, -2.5, 0.0, -0.0, 1e300, -1e300, float("inf"), float("-inf"), 3, -3, 2 ** 64, -(2 ** 63), 1e-300]
for a in vals:
    print([repr(a // b) if b else "z" for b in vals])
    print([repr(a % b) if b else "z" for b in vals])
    print([repr(divmod(a, b)) if b else "z" for b in vals[:6]])
for f in [lambda: 10 ** 400 | 1.5, lambda: 1e20 ^ 10 ** 400, lambda: 2.0 << 1, lambda: 10 ** 400 & float("inf"), lambda: 10 ** 400 // 1.5]:
    try:
        print(f())
    except (TypeError, OverflowError) as e:
        print(type(e).__name__ + ":", e)
for a, b in [(2.0, 0), (1, 0.0), (True, 0.0), (1.5, False), (2 ** 64, 0.0)]:
    try:
        print(divmod(a, b))
    except ZeroDivisionError as e:
        print("ZeroDivisionError:", e)
