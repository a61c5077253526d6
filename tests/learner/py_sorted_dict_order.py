import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
sd = model.state_dict()
for k in sd:
    print(k, end=" ")
print()
sizes = {k: v.numel() for k, v in sd.items()}
print(sizes)
print(max(sizes.items(), key=lambda kv: kv[1]))
print(dict(sorted(sizes.items(), key=lambda kv: -kv[1])))
