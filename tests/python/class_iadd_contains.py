class Bag:
    def __init__(self):
        self.items = []
    def __iadd__(self, x):
        self.items.append(x)
        return self
    def __contains__(self, x):
        return x in self.items
    def __bool__(self):
        return len(self.items) > 0
b = Bag()
print(bool(b))
b += "apple"
b += "pear"
print("apple" in b, "fig" in b, bool(b), b.items)
