sq = lambda x: x ** 2
print(sq(7))
print((lambda a, b=3: a * b)(2))
print(sorted([(1, "z"), (3, "a"), (2, "m")], key=lambda t: t[1]))
print(list(map(lambda s: s[::-1], ["ab", "cd"])))
compose = lambda f, g: lambda x: f(g(x))
inc_then_double = compose(lambda x: x * 2, lambda x: x + 1)
print(inc_then_double(4))
