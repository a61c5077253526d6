class V:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __add__(self, o):
        return V(self.x + o.x, self.y + o.y)
    def __sub__(self, o):
        return V(self.x - o.x, self.y - o.y)
    def __mul__(self, k):
        return V(self.x * k, self.y * k)
    def __rmul__(self, k):
        return self * k
    def __neg__(self):
        return V(-self.x, -self.y)
    def __repr__(self):
        return f"V({self.x}, {self.y})"
a, b = V(1, 2), V(3, 4)
print(a + b, a - b, a * 3, 2 * a, -a)
