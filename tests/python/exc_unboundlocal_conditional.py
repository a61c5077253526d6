def f(flag):
    if flag:
        value = 1
    return value
print(f(True))
print(f(False))
