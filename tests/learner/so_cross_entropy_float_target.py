import torch
import torch.nn as nn

torch.manual_seed(0)
logits = torch.randn(4, 3)
labels = torch.tensor([0.0, 2.0, 1.0, 1.0])
criterion = nn.CrossEntropyLoss()
loss = criterion(logits, labels)
print(loss)
