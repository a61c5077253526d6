t = (1, 2)
print(t[1])
t[2]
