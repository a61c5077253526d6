class Ctx:
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        print("enter", self.name)
        return self
    def __exit__(self, exc_type, exc, tb):
        print("exit", self.name, exc_type.__name__ if exc_type else None)
        return False
with Ctx("a") as c:
    print("inside", c.name)
with Ctx("outer"), Ctx("inner"):
    print("body")
