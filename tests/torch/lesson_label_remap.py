import torch
import torch.nn.functional as F
raw = torch.tensor([1, 5, 3, 2, 5, 4])
labels = raw - 1
print(labels, labels.tolist() == [0, 4, 2, 1, 4, 3])
print(labels.min().item(), labels.max().item(), int(labels.max()) < 5)
logits = torch.tensor([[2.0, 0.1, 0.1, 0.1, 0.1]] * 6)
loss = F.cross_entropy(logits, labels)
print(f"{loss.item():.4f}", loss.dtype)
all_labels = []
for batch in labels.split(4):
    all_labels += batch.tolist()
print(all_labels)
bad = torch.tensor([0, 5, 2])
print((bad >= 5).any().item(), bad[bad >= 5].tolist())
F.cross_entropy(torch.zeros(3, 5), bad)
