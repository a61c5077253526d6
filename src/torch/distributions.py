# torch.distributions: Normal, Bernoulli, Categorical, Uniform, Multinomial as PyTorch 2.15
# writes them (torch/distributions/*.py): the same draws from the seeded generator (sample
# calls torch.normal / bernoulli / multinomial / rand as PyTorch does), log_prob, entropy,
# mean/stddev/variance, parameter and support validation, and the repr.
import math
import torch

__all__ = ['Distribution', 'Normal', 'Bernoulli', 'Categorical', 'Uniform', 'Multinomial']


def _fmt(t):
    if isinstance(t, torch.Tensor) and t.dim() == 0:
        return repr(t.item())
    return str(t)


def _as_tensor(v, like=None):
    if isinstance(v, torch.Tensor):
        return v
    if like is not None:
        return torch.tensor(v, dtype=like.dtype, device=like.device)
    return torch.tensor(float(v), dtype=torch.get_default_dtype())


def _broadcast_all(*values):
    like = None
    for v in values:
        if isinstance(v, torch.Tensor):
            like = v
            break
    ts = [_as_tensor(v, like) for v in values]
    return torch.broadcast_tensors(*ts)


# torch.finfo(dtype).eps / .min of the float dtypes
_EPS = {torch.float32: 1.1920928955078125e-07, torch.float64: 2.220446049250313e-16,
        torch.float16: 0.0009765625, torch.bfloat16: 0.0078125}
_MIN = {torch.float32: -3.4028234663852886e+38, torch.float64: -1.7976931348623157e+308,
        torch.float16: -65504.0, torch.bfloat16: -3.3895313892515355e+38}


def _clamp_probs(probs):
    eps = _EPS[probs.dtype]
    return probs.clamp(min=eps, max=1 - eps)


class _Constraint:
    def __init__(self, name, check):
        self.name = name
        self.check = check

    def __repr__(self):
        return self.name


_real = _Constraint('Real()', lambda v: v == v)
_positive = _Constraint('GreaterThan(lower_bound=0.0)', lambda v: v > 0)
_unit = _Constraint('Interval(lower_bound=0.0, upper_bound=1.0)', lambda v: (v >= 0) & (v <= 1))
_boolean = _Constraint('Boolean()', lambda v: (v == 0) | (v == 1))


class Distribution:
    _validate_default = True
    arg_constraints = {}

    def __init__(self, batch_shape=torch.Size(), event_shape=torch.Size(), validate_args=None):
        self._batch_shape = torch.Size(batch_shape)
        self._event_shape = torch.Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        else:
            self._validate_args = Distribution._validate_default
        if self._validate_args:
            for p, c in self.arg_constraints.items():
                if p not in self.__dict__:
                    continue
                value = self.__dict__[p]
                ok = c.check(value)
                if not bool(ok.all()):
                    raise ValueError(
                        f'Expected parameter {p} ({type(value).__name__} of shape '
                        f'{tuple(value.shape)}) of distribution {self!r} to satisfy the '
                        f'constraint {c!r}, but found invalid values:\n{_fmt(value)}')

    @staticmethod
    def set_default_validate_args(value):
        Distribution._validate_default = bool(value)

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    @property
    def stddev(self):
        return self.variance.sqrt()

    def _extended_shape(self, sample_shape=torch.Size()):
        return torch.Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def _validate_sample(self, value):
        if not isinstance(value, torch.Tensor):
            raise ValueError('The value argument to log_prob must be a Tensor')
        support = self.support
        if support is None or not self._validate_args:
            return
        if not bool(support.check(value).all()):
            raise ValueError(
                f'Expected value argument ({type(value).__name__} of shape '
                f'{tuple(value.shape)}) to be within the support ({support!r}) of the '
                f'distribution {self!r}, but found invalid values:\n{_fmt(value)}')

    def sample_n(self, n):
        return self.sample(torch.Size((n,)))

    def perplexity(self):
        return torch.exp(self.entropy())

    def __repr__(self):
        names = [k for k in self.arg_constraints if k in self.__dict__]
        parts = []
        for p in names:
            v = self.__dict__[p]
            parts.append(f'{p}: {_fmt(v) if v.numel() == 1 else v.size()}')
        return type(self).__name__ + '(' + ', '.join(parts) + ')'


class ExponentialFamily(Distribution):
    pass


class Normal(ExponentialFamily):
    arg_constraints = {'loc': _real, 'scale': _positive}
    support = _real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = _broadcast_all(loc, scale)
        Distribution.__init__(self, self.loc.size(), torch.Size(), validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = torch.normal(torch.zeros(shape, dtype=self.loc.dtype),
                           torch.ones(shape, dtype=self.loc.dtype))
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        log_scale = self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + torch.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(self.scale)


class Bernoulli(ExponentialFamily):
    arg_constraints = {'probs': _unit, 'logits': _real}
    support = _boolean

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError('Either `probs` or `logits` must be specified, but not both.')
        if probs is not None:
            is_scalar = not isinstance(probs, torch.Tensor)
            (self.probs,) = _broadcast_all(probs)
            param = self.probs
        else:
            is_scalar = not isinstance(logits, torch.Tensor)
            (self.logits,) = _broadcast_all(logits)
            param = self.logits
        Distribution.__init__(self, torch.Size() if is_scalar else param.size(), torch.Size(),
                              validate_args)

    def __getattr__(self, name):
        if name == 'logits':
            ps = _clamp_probs(self.__dict__['probs'])
            v = torch.log(ps) - torch.log1p(-ps)
            self.logits = v
            return v
        if name == 'probs':
            v = torch.sigmoid(self.__dict__['logits'])
            self.probs = v
            return v
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        m = (self.probs >= 0.5).to(self.probs)
        m[self.probs == 0.5] = float('nan')
        return m

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = _broadcast_all(self.logits, value)
        return -torch.nn.functional.binary_cross_entropy_with_logits(logits, value, reduction='none')

    def entropy(self):
        return torch.nn.functional.binary_cross_entropy_with_logits(self.logits, self.probs,
                                                                  reduction='none')


class _IntegerInterval(_Constraint):
    def __init__(self, n):
        _Constraint.__init__(self, f'IntegerInterval(lower_bound=0, upper_bound={n - 1})',
                             lambda v: (v % 1 == 0) & (v >= 0) & (v <= n - 1))


class Categorical(Distribution):
    arg_constraints = {'probs': _Constraint('Simplex()', lambda v: (v >= 0).all() & ((v.sum(-1) - 1).abs() < 1e-6).all()),
                       'logits': _Constraint('IndependentConstraint(Real(), 1)', lambda v: v == v)}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError('Either `probs` or `logits` must be specified, but not both.')
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError('`probs` parameter must be at least one-dimensional.')
            self.probs = probs / probs.sum(-1, keepdim=True)
            param = self.probs
        else:
            if logits.dim() < 1:
                raise ValueError('`logits` parameter must be at least one-dimensional.')
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            param = self.logits
        self._param = param
        self._num_events = param.size()[-1]
        batch_shape = param.size()[:-1] if param.dim() > 1 else torch.Size()
        Distribution.__init__(self, batch_shape, torch.Size(), validate_args)

    def __getattr__(self, name):
        if name == 'logits':
            v = torch.log(_clamp_probs(self.__dict__['probs']))
            self.logits = v
            return v
        if name == 'probs':
            v = torch.softmax(self.__dict__['logits'], dim=-1)
            self.probs = v
            return v
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def support(self):
        return _IntegerInterval(self._num_events)

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mean(self):
        return torch.full(self._extended_shape(), float('nan'), dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return torch.full(self._extended_shape(), float('nan'), dtype=self.probs.dtype)

    def sample(self, sample_shape=torch.Size()):
        sample_shape = torch.Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        n = 1
        for d in sample_shape:
            n *= d
        samples_2d = torch.multinomial(probs_2d, n, True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = torch.broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        min_real = _MIN[self.logits.dtype]
        logits = torch.clamp(self.logits, min=min_real)
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)

    def enumerate_support(self, expand=True):
        values = torch.arange(self._num_events, dtype=torch.long)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + tuple(self._batch_shape))
        return values


class Uniform(Distribution):
    arg_constraints = {'low': _Constraint('Real()', lambda v: v == v),
                       'high': _Constraint('Real()', lambda v: v == v)}
    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = _broadcast_all(low, high)
        Distribution.__init__(self, self.low.size(), torch.Size(), validate_args)
        if self._validate_args and not bool(torch.lt(self.low, self.high).all()):
            raise ValueError('Uniform is not defined when low>= high')

    @property
    def support(self):
        low, high = self.low, self.high
        return _Constraint(f'Interval(lower_bound={_fmt(low)}, upper_bound={_fmt(high)})',
                           lambda v: (v >= low) & (v < high))

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def mode(self):
        return float('nan') * self.high

    @property
    def stddev(self):
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        rand = torch.rand(shape, dtype=self.low.dtype, device=self.low.device)
        return self.low + rand * (self.high - self.low)

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return torch.log(lb.mul(ub)) - torch.log(self.high - self.low)

    def cdf(self, value):
        result = (value - self.low) / (self.high - self.low)
        return result.clamp(min=0, max=1)

    def entropy(self):
        return torch.log(self.high - self.low)


class Multinomial(Distribution):
    arg_constraints = {'probs': Categorical.arg_constraints['probs'],
                       'logits': Categorical.arg_constraints['logits']}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError('inhomogeneous total_count is not supported')
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        Distribution.__init__(self, batch_shape, event_shape, validate_args)

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def support(self):
        n = self.total_count
        return _Constraint(f'IntegerInterval(lower_bound=0, upper_bound={n})',
                           lambda v: (v >= 0) & (v <= n) & (v % 1 == 0))

    def sample(self, sample_shape=torch.Size()):
        sample_shape = torch.Size(sample_shape)
        samples = self._categorical.sample(torch.Size((self.total_count,) + tuple(sample_shape)))
        shifted_idx = list(range(samples.dim()))
        shifted_idx.append(shifted_idx.pop(0))
        samples = samples.permute(*shifted_idx)
        counts = torch.zeros(self._extended_shape(sample_shape), dtype=samples.dtype)
        counts.scatter_add_(-1, samples, torch.ones_like(samples))
        return counts.type_as(self.probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = _broadcast_all(self.logits, value)
        logits = logits.clone()
        log_factorial_n = _lgamma(value.sum(-1) + 1)
        log_factorial_xs = _lgamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers

    def entropy(self):
        raise NotImplementedError('cudatutor: Multinomial.entropy')


def _lgamma(t):
    if hasattr(torch, 'lgamma'):
        return torch.lgamma(t)
    flat = [_lgamma1(v) for v in t.reshape(-1).tolist()]
    return torch.tensor(flat, dtype=t.dtype).reshape(t.shape)


def _lgamma1(v):
    if v == int(v) and 1 <= v <= 10000:
        return math.log(math.factorial(int(v) - 1))
    return math.log(abs(math.gamma(v)))


# torch.distributions.kl: KL(p || q) for the pairs of the distributions above, each formula
# torch/distributions/kl.py's, found by the most specific registered pair of types.
_KL_REGISTRY = {}


def register_kl(type_p, type_q):
    def decorator(fun):
        _KL_REGISTRY[type_p, type_q] = fun
        return fun
    return decorator


def _dispatch_kl(type_p, type_q):
    for super_p in type_p.__mro__:
        for super_q in type_q.__mro__:
            fun = _KL_REGISTRY.get((super_p, super_q))
            if fun is not None:
                return fun
    return None


def kl_divergence(p, q):
    fun = _dispatch_kl(type(p), type(q))
    if fun is None:
        raise NotImplementedError(
            f"No KL(p || q) is implemented for p type {p.__class__.__name__} and q type {q.__class__.__name__}"
        )
    return fun(p, q)


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    # reached only across families: each family's own pair is registered below
    raise NotImplementedError(
        "The cross KL-divergence between different exponential families cannot \
                            be computed using Bregman divergences"
    )


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    t1 = p.probs * (
        torch.nn.functional.softplus(-q.logits)
        - torch.nn.functional.softplus(-p.logits)
    )
    t1[q.probs == 0] = math.inf
    t1[p.probs == 0] = 0
    t2 = (1 - p.probs) * (
        torch.nn.functional.softplus(q.logits) - torch.nn.functional.softplus(p.logits)
    )
    t2[q.probs == 1] = math.inf
    t2[p.probs == 1] = 0
    return t1 + t2


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t[(q.probs == 0).expand_as(t)] = math.inf
    t[(p.probs == 0).expand_as(t)] = 0
    return t.sum(-1)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = math.inf
    return result

