import torch
import torch.nn as nn
emb = nn.Embedding(10, 3)
print(emb)
print(emb.weight.shape)
out = emb(torch.tensor([[1, 2, 4], [4, 3, 9]]))
print(out.shape, out.dtype)
print(emb(torch.tensor([0])).shape)
