# Seeded CUDA initialisation, dropout and bernoulli as a learner prints them.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
lin = nn.Linear(4, 3, device='cuda')
print(lin.weight)
print(lin.bias)
x = torch.ones(12, device='cuda')
print(F.dropout(x, 0.5))
print(F.dropout(torch.ones(2, 9, device='cuda'), 0.25))
print(torch.bernoulli(torch.full((8,), 0.5, device='cuda')))
print(torch.empty(6, device='cuda').bernoulli_(0.3))
print(torch.empty(4, device='cuda').exponential_(2.0))
print(torch.empty(4, device='cuda').uniform_(-3, 7))
print(torch.empty(4, device='cuda').normal_(0.5, 2.3))
