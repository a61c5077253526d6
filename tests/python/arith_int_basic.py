a = 7
b = 3
print(a + b, a - b, a * b)
print(a / b)
print(a // b, a % b)
print(a ** b)
print(-a, +a, abs(-a))
print(2 ** 10, 2 ** -1)
print(divmod(17, 5))
