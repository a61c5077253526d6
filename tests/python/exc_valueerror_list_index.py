xs = ["a", "b"]
print(xs.index("b"))
xs.index("z")
