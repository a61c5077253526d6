print(int("12"))
print(int("12.5"))
