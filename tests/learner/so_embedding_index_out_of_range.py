import torch
import torch.nn as nn

torch.manual_seed(0)
vocab_size = 10
emb = nn.Embedding(vocab_size, 3)
tokens = torch.tensor([[1, 4, 9], [2, 3, 10]])
print(emb(tokens[:1]).shape)
print(emb(tokens))
