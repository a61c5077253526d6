import torch
from torch.optim import lr_scheduler as S
def mk(lr=0.1, **kw):
    p = torch.nn.Parameter(torch.zeros(1))
    return torch.optim.SGD([p], lr=lr, **kw)
def trace(name, sched, opt, n=8, metric=None):
    out = []
    for i in range(n):
        opt.step()
        sched.step()
        out.append(round(sched.get_last_lr()[0], 8))
    print(name, out)
o = mk(); trace('LinearLR', S.LinearLR(o, start_factor=0.25, total_iters=4), o)
o = mk(); trace('ConstantLR', S.ConstantLR(o, factor=0.5, total_iters=3), o)
o = mk(); trace('PolynomialLR', S.PolynomialLR(o, total_iters=5, power=2.0), o)
o = mk(momentum=0.9); s = S.OneCycleLR(o, max_lr=1.0, total_steps=10); trace('OneCycleLR', s, o, n=9)
print('momentum', round(o.param_groups[0]['momentum'], 6))
o = mk(momentum=0.9); trace('OneCycle3', S.OneCycleLR(o, max_lr=0.5, epochs=2, steps_per_epoch=5, three_phase=True, anneal_strategy='linear'), o, n=9)
o = mk(momentum=0.9); trace('CyclicLR', S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3), o, n=10)
o = mk(momentum=0.9); trace('CyclicLR2', S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode='triangular2'), o, n=10)
o = mk(momentum=0.9); trace('CyclicExp', S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode='exp_range', gamma=0.9), o, n=10)
o = mk(); trace('WarmRestarts', S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001), o, n=10)
o = mk(); s1 = S.LinearLR(o, start_factor=0.1, total_iters=3); s2 = S.ExponentialLR(o, gamma=0.9)
trace('SequentialLR', S.SequentialLR(o, [s1, s2], milestones=[3]), o, n=8)
o = mk(); s1 = S.ConstantLR(o, factor=0.1, total_iters=2); s2 = S.ExponentialLR(o, gamma=0.9)
trace('Chained', S.ChainedScheduler([s1, s2]), o, n=6)
o = mk(); trace('StepLR', S.StepLR(o, step_size=2, gamma=0.5), o)
o = mk(); trace('MultiStep', S.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.5), o)
o = mk(); trace('Cosine', S.CosineAnnealingLR(o, T_max=4, eta_min=0.01), o, n=10)
o = mk(); trace('Lambda', S.LambdaLR(o, lambda e: 0.95 ** e), o)
o = mk(); trace('Mult', S.MultiplicativeLR(o, lambda e: 0.9), o)
o = mk(); s = S.ReduceLROnPlateau(o, patience=1, factor=0.5)
for m in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7]:
    s.step(m)
    print(s.get_last_lr(), s.num_bad_epochs)
class Warmup(S.LRScheduler):
    def __init__(self, optimizer, warmup, last_epoch=-1):
        self.warmup = warmup
        super().__init__(optimizer, last_epoch)
    def get_lr(self):
        return [base * min(1.0, (self.last_epoch + 1) / self.warmup) for base in self.base_lrs]
o = mk(); trace('Custom', Warmup(o, 4), o, n=6)
o = mk(); s = S.StepLR(o, step_size=2)
sd = s.state_dict()
print(sorted(sd.keys()))
print(sd['base_lrs'], sd['last_epoch'], sd['_step_count'], sd['_last_lr'])
o = mk(); s = S.SequentialLR(o, [S.ConstantLR(o, factor=0.5, total_iters=2), S.StepLR(o, 2)], milestones=[2])
print(sorted(s.state_dict().keys()), len(s.state_dict()['_schedulers']))
o = mk(); s = S.StepLR(o, 3)
s2 = S.StepLR(mk(), 3)
for _ in range(4):
    o.step(); s.step()
s2.load_state_dict(s.state_dict())
print(s2.last_epoch, s2.get_last_lr())
o = mk(); s = S.ExponentialLR(o, 0.5)
s.step(3)
print(s.get_last_lr())
