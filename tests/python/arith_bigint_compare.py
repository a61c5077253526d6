a = 10 ** 30
b = 10 ** 30 + 1
print(a < b, a == b, b - a)
print(a == 10 ** 30)
print(max(a, b) - min(a, b))
print(int("123456789012345678901234567890") + 1)
print(-a)
print(abs(-b))
