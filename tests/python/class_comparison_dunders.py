class Version:
    def __init__(self, major, minor):
        self.t = (major, minor)
    def __lt__(self, o):
        return self.t < o.t
    def __le__(self, o):
        return self.t <= o.t
    def __eq__(self, o):
        return self.t == o.t
    def __repr__(self):
        return "v%d.%d" % self.t
vs = [Version(1, 2), Version(0, 9), Version(1, 0)]
print(sorted(vs))
print(Version(1, 0) < Version(1, 1), Version(2, 0) <= Version(1, 9))
print(max(vs), min(vs))
print(Version(1, 0) > Version(0, 5))
