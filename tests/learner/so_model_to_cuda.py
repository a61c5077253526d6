import torch
import torch.nn as nn

model = nn.Linear(3, 1)
print(next(model.parameters()).device)
model = model.to("cuda")
print(next(model.parameters()).device)
