s = "hello"
print(s.upper())
s.shape
