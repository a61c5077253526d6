import math
import torch

t = torch.tensor([1.0, float("nan"), float("inf"), -float("inf")])
print(t)
print(torch.isnan(t), torch.isinf(t), torch.isfinite(t))
print(torch.isnan(t).any().item())
print(math.isnan(t[1].item()), t[1] == t[1])
print(torch.nan_to_num(t, nan=0.0, posinf=1e6, neginf=-1e6))
print(torch.tensor(0.0) / 0, torch.tensor(1.0) / 0)
