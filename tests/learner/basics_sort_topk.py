import torch

torch.manual_seed(0)
scores = torch.rand(6)
print(scores)
vals, idx = torch.sort(scores, descending=True)
print(vals)
print(idx)
top = torch.topk(scores, 3)
print(top.values, top.indices)
print(torch.argsort(scores))
