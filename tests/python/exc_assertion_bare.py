x = 5
assert x > 0
print("positive")
assert x < 0
