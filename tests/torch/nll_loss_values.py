import torch
import torch.nn.functional as F
logp = F.log_softmax(torch.tensor([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]]), dim=1)
t = torch.tensor([2, 0])
print(F.nll_loss(logp, t).item())
print(F.nll_loss(logp, t, reduction='none'))
print(F.nll_loss(torch.tensor([[-1.0, -2.0], [-0.5, -3.0]]), torch.tensor([1, 0])).item())
