import torch
import torch.nn as nn
emb = nn.Embedding(10, 3)
print(emb(torch.tensor([9])).shape)
emb(torch.tensor([10]))
