class Base:
    def __init__(self, a):
        self.a = a
        print("Base init", a)
class Child(Base):
    def __init__(self, a, b):
        super().__init__(a)
        self.b = b
        print("Child init", b)
c = Child(1, 2)
print(c.a, c.b)
class GrandChild(Child):
    def __init__(self):
        super().__init__(10, 20)
g = GrandChild()
print(g.a + g.b)
