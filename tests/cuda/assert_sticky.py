import torch
import torch.nn.functional as F
logits = torch.randn(4, 3, device='cuda')
labels = torch.tensor([0, 1, 2, 3], device='cuda')
try:
    F.nll_loss(F.log_softmax(logits, dim=1), labels).item()
except RuntimeError as e:
    print("first:", str(e).splitlines()[0])
try:
    torch.ones(2, device='cuda').sum().item()
except RuntimeError as e:
    print("second:", str(e).splitlines()[0])
