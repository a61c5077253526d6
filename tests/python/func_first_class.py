def square(x):
    return x * x
def apply(fn, xs):
    return [fn(x) for x in xs]
print(apply(square, [1, 2, 3]))
ops = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b}
print(ops["add"](2, 3), ops["mul"](2, 3))
fns = [square, abs, str]
print([f(-3) for f in fns])
print(square.__name__)
