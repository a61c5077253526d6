import torch
import torch.nn.functional as F
logp = torch.randn(3, 4)
print(logp.shape)
F.nll_loss(logp, torch.tensor([0, 4, 1]))
