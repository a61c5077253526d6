import torch
import torch.nn as nn

tests = [
    lambda: torch.zeros(2).item(),
    lambda: torch.tensor([[1, 2], [3]]),
    lambda: nn.Linear(2, 2)(torch.zeros(3)),
    lambda: torch.randn(2, requires_grad=True).numpy(),
    lambda: torch.zeros(3)[torch.tensor([0.5])],
]
for i, fn in enumerate(tests):
    try:
        fn()
    except Exception as e:
        print(i, type(e).__name__)
