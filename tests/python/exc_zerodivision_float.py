print(1.0 / 4)
x = 0.0
print(1.0 / x)
