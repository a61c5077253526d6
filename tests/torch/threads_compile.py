# torch.compile wraps a module as PyTorch does (its parameters under `_orig_mod.`, attributes
# forwarded) and computes the same; set_num_threads is read back.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Linear(2, 1)
cm = torch.compile(m)
print(cm)
print(list(dict(cm.named_parameters()).keys()), cm.weight is m.weight, type(cm).__name__)
x = torch.ones(3, 2)
print(torch.equal(cm(x), m(x)))
torch.set_num_threads(1)
print(torch.get_num_threads())
f = torch.compile(lambda t: t + 1)
print(f(torch.zeros(2)))
print(isinstance(x.shape, torch.Size), torch.Size([2, 3]), isinstance((2, 3), torch.Size))
