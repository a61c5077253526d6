import torch

correct = torch.tensor([1, 0, 1, 1])
print(correct.sum())
print(correct.float().mean())
print(correct.sum() / len(correct))
print(correct.mean())
