def one(a):
    return a
print(one(1))
one(1, 2)
