# + - * // % divmod ** on ints past 64 bits, mixed with small ones; results that fit are plain ints
a = 2 ** 64 + 12345
b = -(3 ** 45)
small = [7, -7, 1, -1, 2 ** 62, -(2 ** 63)]
for x in [a, b, -a, 10 ** 25]:
    for y in small + [a, b]:
        print(x + y, x - y, x * y, x // y, x % y, divmod(x, y), divmod(y, x))
print(2 ** 63, -(2 ** 63) - 1, 9223372036854775807 + 1, -9223372036854775808 - 1)
print((-2 ** 63) // -1, abs(-2 ** 63), -(-2 ** 63), (2 ** 62) * 4)
print(a - a, type(a - a).__name__, (a * a) // a == a, (a * a) // (a * a))
x = 1
for i in range(100):
    x = x * 3 + i
print(x)
for i in range(100):
    x = (x - i) // 3
print(x)
print(0 ** 0, (2 ** 70) ** 0, 0 ** (2 ** 70), 1 ** (2 ** 70), (-1) ** (2 ** 70 + 1))
print((-3) ** 41, 7 ** 23, (-2) ** 64, (10 ** 20) ** 3)
print(2 ** -2, (2 ** 64) ** -1, 2 ** -(10 ** 20))
n = 10 ** 30
n += 1
n *= -3
n //= 7
n %= 10 ** 20
n -= 2 ** 80
print(n)
print(sum([10 ** 20] * 5), sum(range(10)) * 10 ** 19, max(2 ** 100, 3 ** 60), min(-2 ** 100, -3 ** 60))
print(sorted([2 ** 64, -2 ** 65, 0, 3, -(2 ** 63), 2 ** 63 - 1, 1.5e19]))
print(bool(2 ** 100), not 2 ** 100, 2 ** 100 and 5, 0 or 2 ** 70)
print(True + 2 ** 63, 2 ** 64 * False, (2 ** 64).bit_length(), (-(2 ** 64)).bit_length(), (2 ** 65 - 1).bit_count())
print(int(2 ** 70), (2 ** 70).real, (2 ** 70).imag, (2 ** 70).numerator, (2 ** 70).denominator)
print(isinstance(2 ** 70, int), type(2 ** 70) is int, 2 ** 70 == 2 ** 70, 2 ** 70 != 2 ** 71)
try:
    print(5 // (2 ** 70 - 2 ** 70))
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    print(2 ** 70 % 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
print(divmod(-10 ** 30, 0))
