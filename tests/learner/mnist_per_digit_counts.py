import torch

torch.manual_seed(0)
labels = torch.randint(0, 10, (50,))
print(labels.bincount())
print(torch.bincount(labels, minlength=12))
counts = {}
for l in labels.tolist():
    counts[l] = counts.get(l, 0) + 1
print(sorted(counts.items()))
print(labels.unique(return_counts=True))
