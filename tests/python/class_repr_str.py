class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __repr__(self):
        return f"Vec({self.x!r}, {self.y!r})"
class Named:
    def __init__(self, n):
        self.n = n
    def __str__(self):
        return "Named:" + self.n
    def __repr__(self):
        return "<Named " + self.n + ">"
v = Vec(1, 2.5)
print(v)
print([v, Vec("a", None)])
n = Named("z")
print(n, [n])
print(str(n), repr(n), f"{n} {n!r}")
