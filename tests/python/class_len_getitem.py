class Seq:
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError("out of range")
        return i * i
s = Seq(5)
print(len(s), s[3])
print(list(s))
print(bool(Seq(0)), bool(Seq(2)))
for v in Seq(3):
    print(v)
print(4 in s, 5 in s)
