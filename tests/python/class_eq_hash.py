class P:
    def __init__(self, x):
        self.x = x
    def __eq__(self, other):
        return isinstance(other, P) and self.x == other.x
    def __hash__(self):
        return hash(self.x)
print(P(1) == P(1), P(1) == P(2), P(1) != P(1))
print(P(1) == 1)
print(len({P(1), P(1), P(2)}))
print(P(3) in [P(1), P(3)])
