# In-place forms (x.exp_(), torch.sin_(x), x.gt_(y), x.tril_(), ...) and the alias names
# (greater_equal, not_equal, multiply, subtract, divide, float_power): values, dtypes, the
# autograd history an in-place op leaves, and PyTorch's refusals.
import torch


def show(label, f):
    try:
        r = f()
        print(label, r, r.dtype if isinstance(r, torch.Tensor) else '')
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.tensor([0.25, -0.5, 0.75, 1.5, -2.0])
pos = torch.tensor([0.5, 1.25, 2.0, 3.5, 9.0])
unit = torch.tensor([-0.9, -0.25, 0.0, 0.3, 0.8])
for name in ['exp_', 'sin_', 'cos_', 'tan_', 'sinh_', 'cosh_', 'tanh_', 'sigmoid_', 'neg_',
             'negative_', 'abs_', 'absolute_', 'sign_', 'reciprocal_', 'expm1_', 'erf_',
             'erfc_', 'atan_', 'arctan_', 'asinh_', 'arcsinh_', 'floor_', 'ceil_', 'trunc_',
             'fix_', 'frac_', 'deg2rad_', 'rad2deg_', 'relu_', 'square_', 'round_']:
    t = x.clone()
    r = getattr(t, name)()
    print(name, t, r is t)
for name in ['log_', 'log2_', 'log10_', 'log1p_', 'sqrt_', 'rsqrt_', 'acosh_', 'arccosh_']:
    t = pos.clone()
    getattr(t, name)()
    print(name, t)
for name in ['asin_', 'arcsin_', 'acos_', 'arccos_', 'atanh_', 'arctanh_', 'erfinv_', 'logit_']:
    t = unit.clone()
    getattr(t, name)()
    print(name, t)
t = x.clone()
print(torch.exp_(t) is t, t)
t = x.clone()
torch.rsqrt_(t.abs_())
print(t)
v = x.clone()
v[1:3].sin_()
print(v)

# integers: ops that keep the dtype run, float results are refused
i = torch.tensor([3, -4, 5])
show('int neg_', lambda: i.clone().neg_())
show('int abs_', lambda: i.clone().abs_())
show('int sign_', lambda: i.clone().sign_())
show('int square_', lambda: i.clone().square_())
show('int exp_', lambda: i.clone().exp_())
show('int sqrt_', lambda: i.clone().sqrt_())
show('int frac_', lambda: i.clone().frac_())
show('bool logical_not_', lambda: torch.tensor([True, False]).logical_not_())
show('int bitwise_not_', lambda: i.clone().bitwise_not_())
show('float bitwise_not_', lambda: x.clone().bitwise_not_())

# binary in-place forms and aliases
a = torch.tensor([1.0, 2.0, 3.0, 4.0])
b = torch.tensor([2.0, 2.0, 1.0, 5.0])
for name in ['eq_', 'ne_', 'not_equal_', 'lt_', 'less_', 'le_', 'less_equal_', 'gt_',
             'greater_', 'ge_', 'greater_equal_', 'fmod_', 'remainder_', 'hypot_', 'atan2_',
             'arctan2_', 'multiply_', 'true_divide_', 'floor_divide_', 'subtract_',
             'divide_', 'logical_and_', 'logical_or_', 'logical_xor_', 'xlogy_']:
    t = a.clone()
    r = getattr(t, name)(b)
    print(name, t, r is t)
for name in ['eq_', 'gt_', 'le_', 'fmod_', 'remainder_', 'multiply_', 'true_divide_',
             'floor_divide_', 'subtract_', 'divide_']:
    t = a.clone()
    getattr(t, name)(2)
    print(name, 'scalar', t)
t = a.clone()
print(t.subtract_(b, alpha=2), t.divide_(b, rounding_mode='floor'))
t = a.clone()
print(t.divide_(3, rounding_mode='trunc'))
n = torch.tensor([6, 5, 12])
m = torch.tensor([4, 3, 10])
for name in ['bitwise_and_', 'bitwise_or_', 'bitwise_xor_', 'fmod_',
             'remainder_', 'floor_divide_', 'eq_', 'lt_']:
    t = n.clone()
    getattr(t, name)(m)
    print(name, 'int', t)
show('int true_divide_', lambda: n.clone().true_divide_(m))
show('int divide_', lambda: n.clone().divide_(m))
show('int divide_ floor', lambda: n.clone().divide_(m, rounding_mode='floor'))
show('int hypot_', lambda: n.clone().hypot_(m))
show('int xlogy_', lambda: n.clone().xlogy_(m))
show('int fmod_ float', lambda: n.clone().fmod_(1.5))
show('shape', lambda: torch.zeros(3).gt_(torch.zeros(2, 3)))
show('divide_ mode', lambda: a.clone().divide_(b, rounding_mode='round'))

for name in ['greater', 'greater_equal', 'less', 'less_equal', 'not_equal', 'multiply',
             'subtract', 'divide', 'true_divide']:
    print(name, getattr(a, name)(b), getattr(torch, name)(a, b), getattr(torch, name)(a, 3))
print(torch.subtract(a, b, alpha=0.5), torch.divide(a, b, rounding_mode='floor'))
print(torch.divide(n, m), torch.true_divide(n, 4), torch.multiply(n, 3))
out = torch.empty(4)
torch.multiply(a, b, out=out)
print(out)

# clamp family, triangles, scans, nan_to_num
t = x.clone()
print(t.clamp_(-0.5, 0.5), t.clip_(max=0.3), t.clamp_min_(0.0), t.clamp_max_(0.1))
print(torch.clamp_(x.clone(), min=0), torch.clip_(x.clone(), -1, 1),
      torch.clamp_min_(x.clone(), 0.5), torch.clamp_max_(x.clone(), 0.5))
t = x.clone()
print(t.clamp_min_(torch.zeros(5)), t.clamp_max_(torch.full((5,), 0.5)))
sq = torch.arange(1., 10.).reshape(3, 3)
print(sq.clone().tril_(), sq.clone().triu_(1), sq.clone().tril_(-1))
print(sq.clone().cumsum_(0), sq.clone().cumprod_(1), sq.clone().cumsum_(dim=1))
nn_ = torch.tensor([float('nan'), float('inf'), -float('inf'), 1.0])
print(nn_.clone().nan_to_num_(), nn_.clone().nan_to_num_(0.5, 2.0, -2.0), torch.nan_to_num_(nn_.clone(), nan=3.0))
print(torch.square_(x.clone()), torch.logit_(unit.clone().abs_(), eps=0.1), torch.xlogy_(a.clone(), b))

# float_power: both operands in double
print(torch.float_power(a, 2), torch.float_power(2, a), torch.float_power(n, m), a.float_power(b))
print(torch.float_power(a, 0.5), torch.float_power(n, -1))
d = a.double()
print(d.float_power_(1.5), d.float_power_(torch.tensor([1, 2, 1, 2])))
show('float_power_ float', lambda: a.clone().float_power_(2))
show('float_power_ long', lambda: n.clone().float_power_(2.0))

# autograd: the in-place op's node replaces the tensor's history, with its derivative
w = torch.tensor([0.5, 1.5, -2.0], requires_grad=True)
for name in ['exp_', 'sin_', 'tanh_', 'sigmoid_', 'reciprocal_', 'square_', 'tril_',
             'triu_', 'clamp_', 'neg_', 'abs_', 'atan_', 'relu_', 'erf_']:
    y = w * 2
    if name in ('tril_', 'triu_'):
        y = (w * 2).reshape(3, 1).expand(3, 3).clone()
    if name == 'clamp_':
        getattr(y, name)(-1, 2)
    else:
        getattr(y, name)()
    y.sum().backward()
    print(name, y.grad_fn.name(), w.grad)
    w.grad = None
y = w * 1
y.mul_(3).sin_().add_(1)
y.sum().backward()
print(y.grad_fn.name(), w.grad)
w.grad = None
y = w + 0
y.hypot_(torch.tensor([1.0, 2.0, 3.0]))
y.sum().backward()
print(y.grad_fn.name(), w.grad)
w.grad = None
show('leaf exp_', lambda: w.exp_())
show('leaf gt_', lambda: w.gt_(0))
show('leaf tril_', lambda: w.reshape(3, 1).expand(3, 3).clone().detach().requires_grad_().tril_())
show('leaf clamp_', lambda: w.clamp_(0, 1))
with torch.no_grad():
    w2 = w.detach().clone().requires_grad_()
    w2.exp_()
print(w2, w2.requires_grad, w2.is_leaf)

# std_mean / var_mean are torch functions, not Tensor methods
print(torch.std_mean(a), torch.var_mean(a, dim=0))
print(hasattr(a, 'std_mean'), hasattr(a, 'var_mean'))
