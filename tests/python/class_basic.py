class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def norm2(self):
        return self.x ** 2 + self.y ** 2
    def move(self, dx, dy):
        self.x += dx
        self.y += dy
        return self
p = Point(3, 4)
print(p.x, p.y, p.norm2())
p.move(1, 1).move(1, 1)
print(p.x, p.y)
p.z = 9
print(p.z)
