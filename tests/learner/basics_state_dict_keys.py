import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 3), nn.ReLU(), nn.Linear(3, 1))
sd = model.state_dict()
print(list(sd.keys()))
for k, v in sd.items():
    print(k, tuple(v.shape), v.dtype)
print(sd["2.bias"])
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print(opt.state_dict()["param_groups"])
