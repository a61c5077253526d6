import torch
import torch.nn.functional as F

logp = F.log_softmax(torch.zeros(2, 4), dim=1)
print(F.nll_loss(logp, torch.tensor([1, 3])))
print(F.nll_loss(logp, torch.tensor([1, -100])))
print(F.nll_loss(logp, torch.tensor([1, -1])))
