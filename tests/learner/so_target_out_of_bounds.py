import torch
import torch.nn as nn

torch.manual_seed(0)
num_classes = 3
model = nn.Linear(5, num_classes)
x = torch.randn(4, 5)
y = torch.tensor([1, 2, 3, 0])  # labels 1..3 instead of 0..2
loss = nn.CrossEntropyLoss()(model(x), y)
print(loss)
