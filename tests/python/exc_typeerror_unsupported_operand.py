a = 1
b = "2"
print(str(a) + b)
print(a + b)
