# typing: the names type hints use, printable and subscriptable; annotations are recorded.
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, TypeVar, Union

print(List[int], Optional[str], Dict[str, List[float]], Tuple[int, ...], Union[int, str])
print(Callable[[int], str], Any, List)
T = TypeVar("T")
print(T)


def first(xs: List[T]) -> Optional[T]:
    return xs[0] if xs else None


print(first([3, 4]), first([]))


class Config:
    lr: float = 0.1
    epochs: int = 3
    name: str


print(Config.__annotations__, Config.lr)
count: int = 5
print(__annotations__["count"], count)
