import torch

w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.3, patience=2)
losses = [1.0, 0.9, 0.95, 0.91, 0.92, 0.93, 0.5, 0.6, 0.61, 0.62, 0.7, 0.8, 0.9, 1.0, 1.1]
for epoch, l in enumerate(losses):
    opt.step()
    sched.step(l)
    print(epoch, repr(opt.param_groups[0]['lr']), repr(sched.get_last_lr()[0]), sched.num_bad_epochs)
opt = torch.optim.SGD([w], lr=0.05)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='max', factor=0.5, patience=0, threshold=0.1,
                                                   min_lr=0.01, cooldown=1)
for epoch, l in enumerate([0.1, 0.2, 0.21, 0.22, 0.5, 0.5, 0.5, 0.5, 0.5]):
    opt.step()
    sched.step(l)
    print(epoch, repr(opt.param_groups[0]['lr']), sched.num_bad_epochs, sched.cooldown_counter)
