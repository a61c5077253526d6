# Picking each sample's probability of its target with gather; one target is the class count.
import torch

torch.manual_seed(0)
probs = torch.softmax(torch.randn(4, 4, device='cuda'), dim=1)
targets = torch.tensor([3, 1, 4, 0], device='cuda')  # entered
picked = probs.gather(1, targets.unsqueeze(1))  # origin
nll = -picked.log().mean()
print(round(nll.item(), 4))
