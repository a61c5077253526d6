import torch
p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=0.1)
s = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
s.step()
print(s.get_last_lr())
opt.step()
s.step()
print(s.get_last_lr())
