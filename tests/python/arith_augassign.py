x = 10
x += 5
print(x)
x -= 3
print(x)
x *= 2
print(x)
x //= 5
print(x)
x **= 3
print(x)
x %= 7
print(x)
y = 1.0
y /= 4
print(y)
s = "ab"
s *= 3
print(s)
