# Measured with CPython 3.12 under `ulimit -v 4000000` (the last case needs 10 GB).
class H:
    def __hash__(self):
        return 1


a, b = H(), H()
print(len({a, b}), len({a: 1, b: 2}), hash(a), a in {b}, a in {a})


class E:
    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return hash(self.v)

    def __eq__(self, o):
        return isinstance(o, E) and o.v == self.v


print(len({E(1), E(1), E(2)}), E(2) in {E(2): 0})
print(len('%*d' % (100000, 1)), repr('%*d' % (-5, 1)), repr('%0*d' % (12000, -7))[:6])
print(repr(('%-*s|' % (10001, 'ab'))[-3:]), len('%*.*f' % (20000, 2, 1.5)))
try:
    '%*d' % (2**63, 1)
except OverflowError as e:
    print('OverflowError', e)
try:
    '%*d' % (10**10, 1)
except MemoryError:
    print('MemoryError')
