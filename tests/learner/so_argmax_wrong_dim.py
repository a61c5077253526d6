import torch

torch.manual_seed(0)
logits = torch.randn(4, 3)
labels = torch.tensor([2, 0, 1, 1])
print(logits)
wrong = logits.argmax(dim=0)
right = logits.argmax(dim=1)
print(wrong, right)
print((right == labels).float().mean())
print((wrong == labels[:3]).float().mean())
print((wrong == labels).float().mean())
