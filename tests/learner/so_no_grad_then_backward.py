import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
x = torch.randn(5, 3)
with torch.no_grad():
    loss = model(x).pow(2).mean()
print(loss)
loss.backward()
