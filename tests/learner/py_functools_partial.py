from functools import partial, reduce
import torch
import torch.nn.functional as F

torch.manual_seed(0)
smooth_ce = partial(F.cross_entropy, reduction="sum")
logits = torch.randn(3, 4)
target = torch.tensor([0, 1, 3])
print(smooth_ce(logits, target))
print(F.cross_entropy(logits, target, reduction="sum"))
print(reduce(lambda a, b: a * b, [2, 3, 4]))
print(reduce(torch.add, [torch.ones(2), torch.ones(2), torch.ones(2)]))
