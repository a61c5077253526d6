import torch
p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=0.1)
s = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
print(s.get_lr())
