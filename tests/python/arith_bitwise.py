a = 0b1100
b = 0b1010
print(a & b, a | b, a ^ b)
print(~a)
print(a << 2, a >> 2)
print(-16 >> 2)
print(1 << 65)
print(bin(a & b))
