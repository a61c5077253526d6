class Multiplier:
    def __init__(self, k):
        self.k = k
    def __call__(self, x):
        return x * self.k
triple = Multiplier(3)
print(triple(7))
print(list(map(triple, [1, 2])))
print(callable(triple), callable(Multiplier))
class Acc:
    def __init__(self):
        self.total = 0
    def __call__(self, *xs):
        self.total += sum(xs)
        return self.total
a = Acc()
a(1, 2)
print(a(3))
