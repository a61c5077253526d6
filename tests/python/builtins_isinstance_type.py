print(type(1), type(1.0), type("s"), type([]), type({}), type(()), type(None), type(True))
print(isinstance(1, int), isinstance(True, int), isinstance(1.0, (int, float)))
print(isinstance("x", str), isinstance([], tuple))
print(issubclass(bool, int), issubclass(int, float))
print(type(1) is int, type(True) is int)
print(type(3).__name__, type([]).__name__)
class A: pass
class B(A): pass
print(isinstance(B(), A), issubclass(B, A), issubclass(A, B))
print(type(B()).__name__, B.__name__)
