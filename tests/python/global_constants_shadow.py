LIMIT = 3
def count_up():
    return [i for i in range(LIMIT)]
print(count_up())
LIMIT = 5
print(count_up())
def shadow_builtin():
    len = lambda x: 42
    return len([1])
print(shadow_builtin(), len([1]))
