import torch

tensor = torch.ones(4, 4)
tensor[:, 1] = 0
agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))
print(agg)
m = tensor.mean()
print(m.item(), float(m), round(m.item(), 2))
