import torch

labels = ["cat", "dog", "cat"]
classes = sorted(set(labels))
idx = torch.tensor([classes.index(l) for l in labels])
print(classes, idx)
print(torch.tensor(labels))
