import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(2, 3, 4)  # batch, classes, sequence
target = torch.randint(0, 3, (2, 4))
print(target)
print(F.cross_entropy(logits, target))
print(F.cross_entropy(logits, target, reduction='none'))
probs = torch.softmax(torch.randn(2, 3), dim=1)
print(F.cross_entropy(torch.randn(2, 3), probs))
