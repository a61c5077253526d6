class A: pass
a = A()
a.n += 1
