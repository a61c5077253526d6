for s in ["0", "-12", "3.5", "1e-3", "inf"]:
    f = float(s)
    print(s, f, repr(f), str(f))
print(int(float("7.0")))
print(float(10 ** 20))
print(str(10 ** 20))
print(2 ** 53 + 1, float(2 ** 53 + 1))
