x = 5
print(1 < x < 10)
print(1 < x > 10)
print(1 < 2 < 3 < 4)
print(3 > 2 == 2)
print(1 == 1.0 == True)
print(x != 5, x >= 5, x <= 4)
print("abc" < "abd", "a" < "B", [1, 2] < [1, 3], (1, 2) == (1, 2))
a = [1, 2]
print(a == [1, 2], a is a, a is not [1, 2][:])
print(None is None, None == 0)
