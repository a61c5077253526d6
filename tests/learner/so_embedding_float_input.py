import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(5, 2)
ids = torch.tensor([1.0, 2.0, 4.0])
print(emb(ids.long()))
print(emb(ids))
