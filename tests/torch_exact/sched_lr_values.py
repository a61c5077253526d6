import torch

def run(make, n=14):
    w = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    sched = make(opt)
    out = [sched.get_last_lr()[0]]
    for epoch in range(n):
        opt.step()
        sched.step()
        out.append(sched.get_last_lr()[0])
    print(type(sched).__name__, [repr(v) for v in out])
    return sched

S = torch.optim.lr_scheduler
run(lambda o: S.StepLR(o, step_size=3, gamma=0.7))
run(lambda o: S.StepLR(o, step_size=1, gamma=0.9))
run(lambda o: S.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3))
run(lambda o: S.ExponentialLR(o, gamma=0.95))
run(lambda o: S.ExponentialLR(o, gamma=0.3))
run(lambda o: S.CosineAnnealingLR(o, T_max=5), 16)
run(lambda o: S.CosineAnnealingLR(o, T_max=7, eta_min=0.003), 20)
run(lambda o: S.LambdaLR(o, lr_lambda=lambda e: 0.85 ** e))
run(lambda o: S.LambdaLR(o, lr_lambda=lambda e: 1 / (1 + 0.3 * e)))
s = run(lambda o: S.StepLR(o, step_size=2, gamma=0.1))
print(s.last_epoch, s.base_lrs, s.optimizer.param_groups[0]['lr'], s.optimizer.param_groups[0]['initial_lr'])
