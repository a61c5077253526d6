print(0 or 5)
print(3 or 5)
print(0 and 5)
print(3 and 5)
print("" or "default")
print([] and [1])
print(None or 0 or "")
print(not 0, not 3, not "", not [0])
print(1 and 2 and 3, 1 and 0 and 3)
x = None
name = x or "anon"
print(name)
