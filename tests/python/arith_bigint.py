x = 2 ** 100
print(x)
print(x + 1)
print(x * x)
print(3 ** 50)
print(x // 3, x % 7)
print(-(2 ** 70) // 3)
f = 1
for i in range(1, 26):
    f *= i
print(f)
print(len(str(2 ** 1000)))
