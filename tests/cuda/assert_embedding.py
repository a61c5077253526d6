import torch
import torch.nn as nn
emb = nn.Embedding(10, 3).cuda()
out = emb(torch.tensor([1, 10], device='cuda'))
print(out.sum().item())
