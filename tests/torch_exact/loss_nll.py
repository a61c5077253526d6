import torch
import torch.nn.functional as F

x = torch.linspace(-1.5, 1.5, 20).reshape(5, 4)
logp = F.log_softmax(x, dim=1)
t = torch.tensor([3, 0, 1, 2, 3])
print(repr(F.nll_loss(logp, t).item()))
print(F.nll_loss(logp, t, reduction='none').tolist())
print(repr(F.nll_loss(logp, t, ignore_index=3).item()))
