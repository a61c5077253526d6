import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 1))
opt = torch.optim.SGD([
    {"params": model[0].parameters(), "lr": 0.1},
    {"params": model[1].parameters()},
], lr=0.01, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
for epoch in range(5):
    opt.step()
    sched.step()
    print(epoch, [round(g["lr"], 6) for g in opt.param_groups])
print(sched.state_dict()["last_epoch"])
