n = 0
while n < 3:
    print("loop", n)
    n += 1
else:
    print("while done")
n = 0
while True:
    n += 1
    if n == 4:
        break
else:
    print("never")
print("n =", n)
