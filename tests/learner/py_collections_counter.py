from collections import Counter, defaultdict
import torch

labels = torch.tensor([1, 0, 2, 1, 1, 0])
c = Counter(labels.tolist())
print(c)
print(c.most_common(1))
by_label = defaultdict(list)
for i, l in enumerate(labels.tolist()):
    by_label[l].append(i)
print(dict(by_label))
print(Counter(t.item() for t in labels)[1])
