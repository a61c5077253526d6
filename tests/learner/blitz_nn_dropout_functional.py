import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.ones(2, 6)
print(F.dropout(x, p=0.5))
print(F.dropout(x, p=0.5, training=False))
print(F.dropout(x, p=0.0))
drop = torch.nn.Dropout(p=0.25)
print(drop(x))
print(torch.nn.Dropout2d(0.5)(torch.ones(1, 4, 2, 2)).sum(dim=(2, 3)))
