import torch
from torch.optim import Optimizer
class MySGD(Optimizer):
    def __init__(self, params, lr=0.1):
        super().__init__(params, dict(lr=lr))
    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group['lr'])
                    self.state[p]['n'] = self.state[p].get('n', 0) + 1
w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
opt = MySGD([w], lr=0.5)
print(opt)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
for _ in range(3):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    sched.step()
    print(w.tolist(), sched.get_last_lr(), opt.param_groups[0]['lr'])
print(opt.state_dict())
m = torch.nn.Linear(2, 1)
with torch.no_grad():
    m.weight.fill_(0.5); m.bias.fill_(0.1)
adam = torch.optim.Adam(m.parameters(), lr=0.01)
m(torch.ones(3, 2)).sum().backward()
adam.step()
sd = adam.state_dict()
print(sd['param_groups'])
print(sorted(sd['state'].keys()), sd['state'][0]['step'], sd['state'][1]['exp_avg'])
adam2 = torch.optim.Adam(m.parameters(), lr=0.5)
adam2.load_state_dict(sd)
print(adam2.param_groups[0]['lr'], adam2.state[m.bias]['exp_avg_sq'])
try:
    adam2.load_state_dict({'state': {}, 'param_groups': []})
except ValueError as e:
    print(e)
for g in adam.param_groups:
    g['lr'] = 0.001
print(adam.param_groups[0]['lr'], len(adam.state))
adam.zero_grad(set_to_none=False)
print(m.weight.grad)
adam.zero_grad()
print(m.weight.grad)
named = torch.optim.SGD(m.named_parameters(), lr=0.1)
print(named.param_groups[0]['param_names'], named.state_dict()['param_groups'])
h = adam.register_step_post_hook(lambda o, a, k: print('post hook', type(o).__name__))
m(torch.ones(1, 2)).sum().backward()
adam.step()
h.remove()
adam.step()
print('done')
