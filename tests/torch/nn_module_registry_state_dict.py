import torch
import torch.nn as nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU())
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer('steps', torch.zeros(1))
        self.register_buffer('cache', torch.zeros(2), persistent=False)
        self.mask = torch.ones(3)
        self.heads = nn.ModuleList([nn.Linear(8, 2) for _ in range(3)])
        self.extra = nn.ModuleDict({'a': nn.Tanh(), 'b': nn.Identity()})
    def forward(self, x):
        return self.heads[0](self.features(x)) * self.scale
net = Net()
print(net)
sd = net.state_dict()
print(list(sd.keys()))
print([n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_buffers()])
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_children()])
print(len(list(net.parameters())), len(list(net.buffers())), len(list(net.modules())))
print(sd['features.1.num_batches_tracked'], sd['steps'])
print(net.get_submodule('features.0'))
print(net.get_parameter('features.0.bias').shape)
print(net.get_buffer('features.1.running_mean'))
net2 = Net()
print(net2.load_state_dict(sd))
del sd['scale']
sd['bogus'] = torch.zeros(1)
r = net2.load_state_dict(sd, strict=False)
print(r)
print(r.missing_keys, r.unexpected_keys)
try:
    net2.load_state_dict(sd)
except RuntimeError as e:
    print(e)
sd2 = net.state_dict()
sd2['features.0.weight'] = torch.zeros(3, 3)
try:
    net2.load_state_dict(sd2)
except RuntimeError as e:
    print(e)
def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
err(lambda: net.register_buffer('scale', torch.zeros(1)))
err(lambda: net.register_buffer('a.b', torch.zeros(1)))
err(lambda: net.register_buffer('x', 3))
err(lambda: net.register_parameter('y', torch.zeros(1)))
err(lambda: net.add_module('z', 3))
err(lambda: net.get_submodule('features.7'))
err(lambda: net.get_submodule('scale'))
err(lambda: setattr(net, 'scale', torch.zeros(1)))
err(lambda: setattr(net, 'features', 3))
err(lambda: setattr(net, 'steps', 'x'))
class Bad(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(1, 1)
err(lambda: Bad())
print(nn.Linear(3, 2, bias=False))
print(nn.Sequential())
print(nn.ModuleList())
print(nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1))))
class WithExtra(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1, 1)
    def extra_repr(self):
        return 'hello=1\nworld=2'
print(WithExtra())
pl = nn.ParameterList([nn.Parameter(torch.zeros(2, 3)), nn.Parameter(torch.ones(4))])
print(pl)
pd = nn.ParameterDict({'w': nn.Parameter(torch.zeros(2))})
print(pd)
print(len(pl), [n for n, _ in pl.named_parameters()])
m = nn.Linear(2, 2)
m.double()
print(m.weight.dtype)
bn = nn.BatchNorm1d(3)
bn.to(torch.float64)
print(bn.running_mean.dtype, bn.num_batches_tracked.dtype)
opt_before = torch.optim.SGD(m.parameters(), lr=0.1)
m.float()
print(opt_before.param_groups[0]['params'][0] is m.weight)
seq = nn.Sequential(nn.Linear(1, 1), nn.ReLU(), nn.Tanh())
del seq[1]
print(seq)
seq.insert(1, nn.Sigmoid())
print(seq, len(seq))
print(seq[0:2])
net.apply(lambda m: print(type(m).__name__) if isinstance(m, nn.Linear) else None)
print(net.training, net.eval().training, net.features[1].training)
