# shifts and bitwise operators on ints past 64 bits (two's complement, like CPython)
vals = [2 ** 64, -(2 ** 64), 2 ** 100 + 2 ** 33 + 5, -(3 ** 50), 12345, -1, 0, 2 ** 63 - 1, -(2 ** 63)]
for x in vals:
    print(x << 3, x << 64, x >> 1, x >> 63, x >> 64, x >> 200, ~x)
    for y in vals:
        print(x & y, x | y, x ^ y)
print(1 << 65, 1 << 1000 >> 999, -1 << 100, (-1 << 100) >> 99, 5 >> (2 ** 70), -5 >> (2 ** 70))
print(0 << (2 ** 70), (2 ** 64) >> 0, ~(2 ** 64) & 0xFFFF, (2 ** 128 - 1) & ~(2 ** 64))
print(bin(2 ** 70 | 1), hex(-(2 ** 80)), oct(2 ** 65 + 7))
x = 0
for i in range(0, 200, 7):
    x |= 1 << i
print(x, bin(x).count("1"), x.bit_count())
x ^= x >> 3
x &= (1 << 150) - 1
print(x)
try:
    print(1 << -1)
except ValueError as e:
    print("ValueError:", e)
print((2 ** 70) >> -1)
