print(7 % 3)
print(7 % 0)
