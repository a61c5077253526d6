import torch
import torch.nn as nn
model = nn.Linear(4, 2).cuda()
x = torch.randn(3, 4)
print(model(x))
