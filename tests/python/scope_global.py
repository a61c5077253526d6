counter = 0
def bump():
    global counter
    counter += 1
bump()
bump()
print(counter)
x = "global"
def shadow():
    x = "local"
    return x
print(shadow(), x)
def read_only():
    return x.upper()
print(read_only())
