import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(5, 3, padding_idx=0)
print(emb.weight[0])
tokens = torch.tensor([[0, 2, 4], [1, 0, 0]])
out = emb(tokens)
print(out.shape)
print(out[1])
print(out.grad_fn.name())
out.sum().backward()
print(emb.weight.grad)
