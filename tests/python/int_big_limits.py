# CPython 3.11's 4300-digit limit on int <-> decimal string conversion
big = 10 ** 4299
print(len(str(big)), len(str(-big)), len(repr(big * 9)), str(big)[:10])
print(len(hex(10 ** 5000)), len(bin(2 ** 20000)), len(oct(7 ** 6000)))
print(int("7" * 4300) % 1000, len(str(int("-" + "9" * 4300))), int("f" * 5000, 16) % 997)
for f in [lambda: str(10 ** 4300), lambda: repr(-(10 ** 4300)), lambda: f"{10 ** 4300}", lambda: "%d" % (10 ** 5000),
          lambda: format(10 ** 4300, ","), lambda: int("1" * 4301), lambda: int("-" + "2" * 5000), lambda: int("1_" * 4300 + "1"),
          lambda: int("3" * 4301, 7)]:
    try:
        print(f())
    except ValueError as e:
        print("ValueError:", e)
print(format(10 ** 4300, "x")[:20], (10 ** 4300) % 10 ** 20, 10 ** 4300 // 10 ** 4290)
print(10 ** 4300)
