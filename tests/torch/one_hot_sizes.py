import torch
import torch.nn.functional as F
cases = [
    lambda: F.one_hot(torch.tensor([0, 0, 0, 0]), 2**62),
    lambda: F.one_hot(torch.tensor([1, 1]), 2**63 - 1),
    lambda: F.one_hot(torch.tensor([2**40])),
    lambda: F.one_hot(torch.tensor([2**34]), 2**34 + 1),
    lambda: F.one_hot(torch.tensor([2**40]), 5),
    lambda: F.one_hot(torch.tensor([3]), -5),
    lambda: F.one_hot(torch.tensor([3]), 0),
    lambda: F.one_hot(torch.tensor([-1])),
    lambda: F.one_hot(torch.tensor([], dtype=torch.long)),
    lambda: F.one_hot(torch.tensor([1.0])),
    lambda: F.one_hot(torch.tensor([1], dtype=torch.int32)),
]
for f in cases:
    try:
        print(f())
    except RuntimeError as e:
        print(type(e).__name__, e)
print(F.one_hot(torch.tensor([], dtype=torch.long), 3))
print(F.one_hot(torch.tensor([[0, 2], [1, 0]])))
print(F.one_hot(torch.tensor([1, 0]), num_classes=4))
F.one_hot(torch.tensor([0, 0, 0, 0]), 2**62)
