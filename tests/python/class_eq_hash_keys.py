# Dict and set keys of a class with its own __hash__ and __eq__: same hash, then __eq__.
class H:
    def __init__(self, x, h=1):
        self.x = x
        self.h = h
    def __hash__(self):
        return self.h
    def __eq__(self, other):
        return isinstance(other, H) and self.x == other.x
    def __repr__(self):
        return f'H({self.x})'
s = {H(1), H(1), H(2)}
print(len(s), sorted(h.x for h in s))
d = {H(1): 'a'}
d[H(1)] = 'b'
d[H(2)] = 'c'
print(len(d), d[H(1)], d.get(H(2)), H(3) in d, H(1) in d, list(d.values()))
print(d.pop(H(1)), len(d), d.setdefault(H(2), 'x'), d.setdefault(H(4), 'y'), len(d))
del d[H(4)]
print(len(d), H(2) in d.keys())
s.add(H(2))
s.discard(H(1))
print(len(s), H(2) in s)
s.remove(H(2))
print(len(s))
print(len(set([H(5), H(5)])), len(dict.fromkeys([H(5), H(5)])))
print(len({x: 0 for x in [H(7), H(7), H(8)]}), len({x for x in [H(7), H(7)]}))
print(len(dict([(H(1), 1), (H(1), 2)])), len({H(1): 1, H(1): 2}))
# different hashes are different keys whatever __eq__ says
print(len({H(1, 1), H(1, 2)}))
calls = []
class C:
    def __hash__(self):
        return 0
    def __eq__(self, other):
        calls.append(1)
        return False
a, b = C(), C()
print(len({a, b}), len(calls))
print(a in {a}, len(calls))
class Boom:
    def __hash__(self):
        return 3
    def __eq__(self, other):
        raise ValueError('no eq here')
one = Boom()
print(len({one, one}))
try:
    {Boom(), Boom()}
except ValueError as e:
    print('ValueError', e)
try:
    {Boom(): 1}[Boom()]
except ValueError as e:
    print('ValueError', e)
class NoHash:
    def __eq__(self, other):
        return True
try:
    {NoHash()}
except TypeError as e:
    print('TypeError', e)
try:
    hash(NoHash())
except TypeError as e:
    print('TypeError', e)
print({NoHash: 1}[NoHash])
{NoHash(): 1}
