def g(x):
    return x * undefined
print([g(i) for i in range(3)])
