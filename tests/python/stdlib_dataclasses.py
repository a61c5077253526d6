from dataclasses import dataclass, field, asdict, astuple, fields, replace, is_dataclass
import dataclasses


@dataclass
class Point:
    x: float
    y: float = 0.0


@dataclass
class Config:
    name: str
    lr: float = 1e-3
    layers: list = field(default_factory=lambda: [64, 32])
    tags: dict = field(default_factory=dict)
    seed: int = field(default=0, repr=False)


p = Point(1.5)
print(p, p == Point(1.5, 0.0), p != Point(2, 0))
print(Point(y=2, x=1))
c = Config("run1", layers=[8])
print(c)
print(asdict(c))
print(astuple(Point(3, 4)))
print([f.name for f in fields(Config)])
print(replace(p, y=9))
print(is_dataclass(p), is_dataclass(Point), is_dataclass(3))
c2 = Config("x")
c2.layers.append(1)
print(Config("y").layers, c2.layers)
print(Config.__annotations__)
print(Point.__eq__(p, 3))


@dataclass(order=True)
class Version:
    major: int
    minor: int = 0


print(sorted([Version(1, 2), Version(0, 9), Version(1, 0)]))
print(Version(1) < Version(1, 1))


@dataclass(frozen=True)
class Frozen:
    a: int
    b: str = "b"


fz = Frozen(1)
print(fz, hash(fz) == hash(Frozen(1)))
try:
    fz.a = 2
except dataclasses.FrozenInstanceError as e:
    print("FrozenInstanceError:", e)


@dataclass
class Child(Point):
    z: float = 5.0

    def norm(self):
        return (self.x ** 2 + self.y ** 2 + self.z ** 2) ** 0.5


ch = Child(1, 2)
print(ch, ch.norm())


@dataclass
class WithPost:
    a: int
    b: int = 0

    def __post_init__(self):
        self.total = self.a + self.b


w = WithPost(2, 3)
print(w, w.total)


@dataclass
class Outer:
    inner: Point
    items: list = field(default_factory=list)


o = Outer(Point(1, 2), [Point(3, 4)])
print(asdict(o))
try:
    Point()
except TypeError as e:
    print("TypeError:", e)
try:
    Config()
except TypeError as e:
    print("TypeError:", e)
try:
    Point(1, 2, 3)
except TypeError as e:
    print("TypeError:", e)
try:
    Point(1, z=3)
except TypeError as e:
    print("TypeError:", e)
try:
    @dataclass
    class Bad:
        items: list = []
except ValueError as e:
    print("ValueError:", e)
try:
    @dataclass
    class Bad2:
        a: int = 1
        b: int
except TypeError as e:
    print("TypeError:", e)
try:
    asdict(3)
except TypeError as e:
    print("TypeError:", e)
