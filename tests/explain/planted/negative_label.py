# Unlabelled samples marked -1, and no ignore_index: cross_entropy asserts on the GPU.
import torch
import torch.nn.functional as F

torch.manual_seed(1)
logits = torch.randn(6, 3, device='cuda', requires_grad=True)
labels = torch.tensor([0, 2, 1, 1, 0, 2], device='cuda')
unlabelled = torch.tensor([False, False, True, False, False, True], device='cuda')
labels[unlabelled] = -1  # entered
loss = F.cross_entropy(logits, labels)  # origin
loss.backward()
print('grad norm', logits.grad.norm().item())
