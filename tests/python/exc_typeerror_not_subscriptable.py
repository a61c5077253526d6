n = 10
print(n)
n[0]
