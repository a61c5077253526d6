class OnlyRepr:
    def __repr__(self):
        return "OnlyRepr()"
class Container:
    def __init__(self, items):
        self.items = items
    def __repr__(self):
        return "Container(" + repr(self.items) + ")"
print(OnlyRepr())
print(str(OnlyRepr()))
print(Container([OnlyRepr(), 1, "s"]))
print("%s and %r" % (OnlyRepr(), "q"))
