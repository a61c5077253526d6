from typing import List, Optional


def f(a: int, b: "str" = "x", *args: float, c: List[int] = None, **kw: dict) -> bool:
    return True


print(f.__annotations__)


def g(x, y):
    return x


print(g.__annotations__)
g.__annotations__["x"] = int
print(g.__annotations__)


def h(x: Optional[int] = None) -> None:
    pass


print(h.__annotations__)
print((lambda x: x).__annotations__)


class A:
    def m(self, n: int) -> "A":
        return self


print(A.m.__annotations__, A().m.__annotations__)


def outer():
    T = float

    def inner(v: T) -> T:
        return v
    return inner


print(outer().__annotations__)
