x = 2.5
print(x.is_integer(), (3.0).is_integer())
print(float(7))
print(int(1e10))
print(2 ** 0.5)
print(10 ** -2)
print(abs(-3.25))
print(max(1.5, 2), min(1.5, 2))
print(sum([0.1] * 10))
