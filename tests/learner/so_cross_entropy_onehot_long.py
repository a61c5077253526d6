import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(3, 4)
labels = F.one_hot(torch.tensor([1, 0, 3]), num_classes=4)
print(labels)
loss = F.cross_entropy(logits, labels)
print(loss)
