# Labels read from a text file (cudatutor run --allow-read data): the file holds a 10.
import torch
import torch.nn as nn

num_classes = 10
with open('data/labels.txt') as f:
    raw = [int(line) for line in f if line.strip()]
labels = torch.tensor(raw)  # entered
labels = labels.cuda()

model = nn.Linear(20, num_classes).cuda()
features = torch.randn(len(raw), 20).cuda()
criterion = nn.CrossEntropyLoss()
loss = criterion(model(features), labels)  # origin
print(f'loss {loss.item():.3f}')
