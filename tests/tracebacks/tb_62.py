ok = [i for i in range(3)]
print(ok[5])
