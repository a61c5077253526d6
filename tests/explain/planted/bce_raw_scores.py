# Binary cross-entropy on the model's raw scores (no sigmoid): a device-side assert on CUDA.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
model = nn.Linear(5, 1).cuda()
x = torch.randn(8, 5).cuda() * 4
y = (torch.rand(8) > 0.5).float().cuda()
scores = model(x).squeeze(1)  # entered
loss = F.binary_cross_entropy(scores, y)  # origin
print(loss.item())
