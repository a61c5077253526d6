import torch

w = torch.tensor([2.0, -1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.3, momentum=0.5)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(6):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, repr(loss.item()), w.tolist(), sched.get_last_lr())
