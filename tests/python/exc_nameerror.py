x = 1
print("before", x)
print(y)
print("never")
