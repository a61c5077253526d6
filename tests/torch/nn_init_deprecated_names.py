# torch.nn.init's deprecated names without the trailing underscore: each warns (FutureWarning)
# and runs the new function; its __name__, __qualname__ and __doc__ are PyTorch's.
import warnings
import torch
import torch.nn as nn

w = torch.empty(3, 3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    print(nn.init.constant(w, 0.25))
    print(nn.init.eye(w))
    print(nn.init.dirac(torch.empty(2, 2, 3)).sum())
for c in caught:
    print(c.category.__name__, c.message)
for f in (nn.init.uniform, nn.init.kaiming_normal, nn.init.sparse):
    print(f.__name__, f.__qualname__)
print(nn.init.orthogonal.__doc__)
