# pow with a modulus, round(), math functions on ints past 64 bits
import math
print(pow(3, 10 ** 30, 10 ** 9 + 7), pow(2, 2 ** 70, 2 ** 64 - 59), pow(-7, 3 ** 40, 10 ** 25), pow(5, 200, -(2 ** 70)))
print(pow(10 ** 30, -1, 7), pow(3, -5, 2 ** 89 - 1), pow(2 ** 80, 2 ** 80, 1), pow(0, 0, 5), pow(-(10 ** 20), 3, 10 ** 12 + 39))
print(pow(2, 100), pow(2, -1), pow(-3, 101), pow(7, 2, 2 ** 64 + 13))
for src in [(2, -1, 4), (2 ** 70, -3, 2 ** 71), (3, 4, 0)]:
    try:
        print(pow(*src))
    except ValueError as e:
        print("ValueError:", e)
for n in [10 ** 30 + 5, 10 ** 30 + 15, 10 ** 30 + 25, -(10 ** 30) - 5, 2 ** 100, 123456789012345678901234567895]:
    print(round(n), round(n, 2), round(n, -1), round(n, -5), round(n, -29), round(n, -31), round(n, -100))
print(round(25, -1), round(35, -1), round(-25, -1), round(5 * 10 ** 20, -21), round(15 * 10 ** 20, -21))
print(math.factorial(30), math.factorial(100) % 10 ** 30, len(str(math.factorial(1000))))
print(math.gcd(2 ** 100, 6 ** 50), math.gcd(10 ** 30, 10 ** 20, 15), math.gcd(-(2 ** 70), 0), math.lcm(2 ** 70, 3 ** 40))
print(math.isqrt(10 ** 30), math.isqrt(2 ** 129), math.isqrt(10 ** 40 - 1), math.comb(100, 50), math.perm(30, 20), math.comb(2 ** 40, 3))
print(math.floor(1e20), math.ceil(-1.5e25), math.trunc(2 ** 70), math.floor(2 ** 70), math.ceil(2.0 ** 80))
print(math.log(10 ** 400), math.log2(2 ** 2000), math.log10(10 ** 500), math.log(2 ** 1000, 2), math.log(10 ** 30, 10))
print(math.sqrt(10 ** 30), math.exp(2 ** 3), math.isclose(2 ** 64, 2 ** 64 + 1), math.fabs(-(2 ** 70)), math.prod(range(1, 30)))
print(math.log(3 ** 1000), math.log1p(2 ** 70), math.hypot(2 ** 64, 2 ** 64))
for f in [lambda: math.sqrt(10 ** 400), lambda: math.log(-(10 ** 400)), lambda: math.factorial(-(2 ** 70)), lambda: math.isqrt(-(2 ** 70))]:
    try:
        print(f())
    except (OverflowError, ValueError) as e:
        print(type(e).__name__ + ":", e)
print(math.factorial(2 ** 70))
