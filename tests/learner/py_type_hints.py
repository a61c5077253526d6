from typing import List, Tuple, Optional
import torch


def split(x: torch.Tensor, n: int) -> List[torch.Tensor]:
    return list(torch.chunk(x, n))


def stats(x: torch.Tensor) -> Tuple[float, float]:
    return x.mean().item(), x.std().item()


def maybe(x: Optional[torch.Tensor] = None) -> str:
    return "none" if x is None else str(x.shape)


print(split(torch.arange(7), 3))
print(stats(torch.tensor([1.0, 2.0, 3.0, 4.0])))
print(maybe(), maybe(torch.zeros(2)))
print(split.__annotations__["n"])
