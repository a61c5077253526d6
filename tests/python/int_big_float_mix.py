# big ints meeting floats: float(), true division (correctly rounded), exact comparisons
print(float(2 ** 64), float(-(2 ** 100)), float(10 ** 308), float(2 ** 1023 * 3 // 2))
print(float(2 ** 64 + 2 ** 11), float(2 ** 64 + 2 ** 11 + 1), float(2 ** 64 + 3 * 2 ** 11))
print(float(2 ** 53 + 1), float(2 ** 53 + 3), float(-(2 ** 53) - 1))
print((2 ** 62 + 1) / 3, (2 ** 63 - 1) / (2 ** 62 + 5), 10 ** 30 / 7, -(10 ** 30) / 7)
print(2 ** 1100 / 2 ** 1000, 1 / 2 ** 1000, 3 ** 700 / 5 ** 400, 10 ** 400 / 10 ** 399)
print(1 / 2 ** 1074, 1 / 2 ** 1075, 3 / 2 ** 1076, 2 ** 2000 / 3 ** 1262, 0 / -(2 ** 70))
print(2 ** 64 == 2.0 ** 64, 2 ** 53 + 1 == 2.0 ** 53, 2 ** 53 + 1 > 2.0 ** 53, 2 ** 53 + 1 < 2.0 ** 53 + 2)
print(10 ** 400 > 1e308, 10 ** 400 < float("inf"), -(10 ** 400) > float("-inf"), 10 ** 400 == float("nan"), 10 ** 400 != float("nan"))
print(2 ** 70 < 2.0 ** 70 + 1, 2 ** 70 + 1 > 2.0 ** 70, 9007199254740993 == 9007199254740992.0, 2 ** 63 == 9.223372036854776e18)
print(2 ** 64 + 0.5, 2 ** 64 * 1.5, 2 ** 64 - 1.0, 10 ** 20 // 3.0, 10 ** 20 % 7.0, (2 ** 64) ** 0.5)
print(int(1e20), int(-1e20), int(1.5e300) % 1000, int(2.0 ** 64), int(-2.0 ** 63), int(9.3e18))
print(round(1e20), round(2.5e19), round(-1.7e25), type(round(1e30)).__name__)
print(max(2 ** 64, 1.8e19), min(-(2 ** 64), -1.8e19), sorted([2 ** 64, 1.8e19, 1.9e19, 2 ** 64 + 1]))
for f in [2.0 ** 64, 1e20, -1e25, 1.5, 2.0 ** 63]:
    i = int(f)
    print(i, i == f, float(i) == f, hash(i) == hash(f))
for src in ["float(10 ** 400)", "10 ** 400 / 3", "1.0 * 10 ** 400", "(10 ** 400) ** -1", "10 ** 400 + 0.5", "int(float('inf'))", "int(float('nan'))", "(2 ** 1024 - 1) * 1.0"]:
    try:
        if src == "float(10 ** 400)":
            float(10 ** 400)
        elif src == "10 ** 400 / 3":
            10 ** 400 / 3
        elif src == "1.0 * 10 ** 400":
            1.0 * 10 ** 400
        elif src == "(10 ** 400) ** -1":
            (10 ** 400) ** -1
        elif src == "10 ** 400 + 0.5":
            10 ** 400 + 0.5
        elif src == "int(float('inf'))":
            int(float("inf"))
        elif src == "int(float('nan'))":
            int(float("nan"))
        else:
            (2 ** 1024 - 1) * 1.0
        print(src, "ok")
    except (OverflowError, ValueError) as e:
        print(src, type(e).__name__, e)
print(2 ** 1024 / 2 ** 1)
print(float(2 ** 1024))
