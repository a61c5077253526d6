from typing import Dict, List, Optional, Tuple
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, sizes: List[int], act: Optional[nn.Module] = None) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))
        self.act = act if act is not None else nn.ReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers[:-1]:
            x = self.act(layer(x))
        return self.layers[-1](x)


def count(model: nn.Module) -> Dict[str, int]:
    return {n: p.numel() for n, p in model.named_parameters()}


def shape_of(t: torch.Tensor) -> Tuple[int, ...]:
    return tuple(t.shape)


torch.manual_seed(0)
m = MLP([4, 3, 2])
print(count(m))
print(shape_of(m(torch.randn(5, 4))))
print(MLP.forward.__annotations__)
print(count.__annotations__["return"])
print(list(MLP.__init__.__annotations__), MLP.__init__.__annotations__["sizes"])
