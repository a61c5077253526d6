fns = [lambda: i for i in range(3)]
print([f() for f in fns])
fns2 = [lambda i=i: i for i in range(3)]
print([f() for f in fns2])
def outer():
    x = "outer"
    def inner():
        return x
    x = "changed"
    return inner()
print(outer())
