import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(3, 2)
print(lin.weight)
print(lin.bias)
conv = nn.Conv2d(1, 2, 2)
print(conv.weight)
emb = nn.Embedding(3, 2)
print(emb.weight)
bn = nn.BatchNorm1d(2)
print(bn.weight, bn.bias, bn.running_var)
