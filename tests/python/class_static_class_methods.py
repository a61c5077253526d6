class Circle:
    pi = 3.14
    def __init__(self, r):
        self.r = r
    @staticmethod
    def unit():
        return "unit circle"
    @classmethod
    def from_diameter(cls, d):
        return cls(d / 2)
    def area(self):
        return self.pi * self.r ** 2
print(Circle.unit(), Circle(1).unit())
c = Circle.from_diameter(4)
print(c.r, c.area())
class Sub(Circle):
    pi = 3
print(type(Sub.from_diameter(2)).__name__, Sub.from_diameter(2).area())
