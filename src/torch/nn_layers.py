
# ---- torch.nn, continued (src/torch/nn_layers.py): activations, shuffles, norms and layers
# that nn.py lacked, each as PyTorch 2.15's torch/nn/modules/*.py builds it.


def _f_hardshrink(input, lambd=0.5):
    # ATen: where(-lambd <= x <= lambd, 0, x)
    return torch.where((input >= -lambd) & (input <= lambd), torch.zeros_like(input), input)


def _f_softshrink(input, lambd=0.5):
    if lambd < 0:
        top, name = ('3.40282e+38', 'Float') if input.dtype == torch.float32 else ('1.79769e+308', 'Double')
        raise RuntimeError(f'lambda must be in range [0, {top}] for input dtype {name}, but found {lambd:g}')
    # ATen's CPU kernel: x > lambd ? x - lambd : (x < -lambd ? x + lambd : x * 0); its vectorized
    # loop (two 256-bit vectors a step over a contiguous input) gives +0.0 inside the band,
    # the scalar loop for the remaining elements x * 0, which keeps a negative x's sign
    zero = torch.zeros_like(input)
    if input.is_floating_point() and input.is_contiguous() and input.numel() > 0:
        step = 64 // input.element_size()
        n = input.numel()
        tail = torch.arange(n).reshape(input.shape) >= n - n % step
        zero = torch.where(tail, input * 0, zero)
    return torch.where(input > lambd, input - lambd, torch.where(input < -lambd, input + lambd, zero))


def _f_pixel_shuffle(input, upscale_factor):
    r = upscale_factor
    if input.dim() < 3:
        raise RuntimeError(f'pixel_shuffle expects input to have at least 3 dimensions, but got input with '
                           f'{input.dim()} dimension(s)')
    c, h, w = input.shape[-3], input.shape[-2], input.shape[-1]
    if c % (r * r) != 0:
        raise RuntimeError(f'pixel_shuffle expects its input\'s \'channel\' dimension to be divisible by the '
                           f'square of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}')
    batch = list(input.shape[:-3])
    oc = c // (r * r)
    x = input.reshape(batch + [oc, r, r, h, w])
    n = len(batch)
    perm = list(range(n)) + [n, n + 3, n + 1, n + 4, n + 2]
    return x.permute(*perm).reshape(batch + [oc, h * r, w * r])


def _f_pixel_unshuffle(input, downscale_factor):
    r = downscale_factor
    if input.dim() < 3:
        raise RuntimeError(f'pixel_unshuffle expects input to have at least 3 dimensions, but got input with '
                           f'{input.dim()} dimension(s)')
    c, h, w = input.shape[-3], input.shape[-2], input.shape[-1]
    batch = list(input.shape[:-3])
    oh, ow = h // r, w // r
    x = input.reshape(batch + [c, oh, r, ow, r])
    n = len(batch)
    perm = list(range(n)) + [n, n + 2, n + 4, n + 1, n + 3]
    return x.permute(*perm).reshape(batch + [c * r * r, oh, ow])


def _f_channel_shuffle(input, groups):
    b, c = input.shape[0], input.shape[1]
    rest = list(input.shape[2:])
    x = input.reshape([b, groups, c // groups] + rest)
    return x.transpose(1, 2).reshape([b, c] + rest)


def _f_prelu(input, weight):
    if weight.numel() != 1:
        if input.dim() == 0:
            raise RuntimeError('Not allow zero-dim input tensor.')
        channels = input.shape[1] if input.dim() > 1 else 1
        if weight.numel() != channels:
            raise RuntimeError(f'Mismatch of parameter numbers and input channel size. Found parameter numbers = '
                               f'{weight.numel()} and channel size = {channels}.')
    if weight.dim() > 1:
        raise RuntimeError(f'prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}')
    w = weight.reshape(()) if weight.numel() == 1 else weight
    if weight.numel() != 1 and input.dim() >= 2:
        shape = [1] * input.dim()
        shape[1] = weight.numel()
        w = weight.reshape(shape)
    # one node named as ATen's fused prelu kernel
    return _C._composite('PreluKernelBackward0', _prelu_where, input, w)


def _prelu_where(input, w):
    return torch.where(input > 0, input, w * input)


def _f_rms_norm(input, normalized_shape, weight=None, eps=None):
    ns = list(normalized_shape)
    if len(ns) == 0:
        raise RuntimeError(f'Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one '
                           f'element, but got normalized_shape = {ns}')
    if weight is not None and list(weight.shape) != ns:
        raise RuntimeError(f'Expected weight to be of same shape as normalized_shape, but got weight of shape '
                           f'{list(weight.shape)} and normalized_shape = {ns}')
    if input.dim() < len(ns) or list(input.shape[input.dim() - len(ns):]) != ns:
        raise RuntimeError(f'Given normalized_shape={ns}, expected input with shape [*{", ".join(str(v) for v in ns)}], '
                           f'but got input of size{list(input.shape)}')
    dims = [-i for i in range(1, len(normalized_shape) + 1)]
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    rms = torch.rsqrt(input.pow(2).mean(dims, keepdim=True) + eps)
    out = input * rms
    if weight is not None:
        out = out * weight
    return out


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['hardshrink', 'softshrink', 'pixel_shuffle', 'pixel_unshuffle',
                                   'channel_shuffle', 'prelu', 'rms_norm']


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return functional.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        inplace_str = ', inplace=True' if self.inplace else ''
        return f'threshold={self.threshold}, value={self.value}{inplace_str}'


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return functional.glu(input, self.dim)

    def extra_repr(self):
        return f'dim={self.dim}'


class Softmin(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        if self.dim is None:
            return functional.softmin(input, _legacy_softmax_dim('softmin', input.dim()))
        return functional.softmin(input, self.dim)

    def extra_repr(self):
        return f'dim={self.dim}'


class Softmax2d(Module):
    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f'Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead')
        return functional.softmax(input, -3)


class Hardshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return functional.hardshrink(input, self.lambd)

    def extra_repr(self):
        return f'{self.lambd}'


class Softshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return functional.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class PReLU(Module):
    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(torch.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        with torch.no_grad():
            self.weight.fill_(self.init)

    def forward(self, input):
        return functional.prelu(input, self.weight)

    def extra_repr(self):
        return f'num_parameters={self.num_parameters}'


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return functional.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class PixelShuffle(Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return functional.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f'upscale_factor={self.upscale_factor}'


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return functional.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f'downscale_factor={self.downscale_factor}'


class ChannelShuffle(Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return functional.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f'groups={self.groups}'


class RMSNorm(Module):
    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter('weight', None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            with torch.no_grad():
                self.weight.fill_(1.0)

    def forward(self, x):
        return functional.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return '{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}'.format(**self.__dict__)


def _f_instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                     momentum=0.1, eps=1e-5):
    if use_input_stats:
        size = input.size()
        n = 1
        for s in size[2:]:
            n *= s
        if n == 1:
            raise ValueError(f'Expected more than 1 spatial element when training, got input size {size}')
    # ATen's instance_norm: batch norm over (1, b * c, ...) with the stats repeated b times,
    # the running stats then the mean of the b copies
    b, c = input.shape[0], input.shape[1]
    shape = [1, b * c] + list(input.shape[2:])
    rep = lambda t: None if t is None else t.repeat(b)
    rm, rv = rep(running_mean), rep(running_var)
    out = _f_batch_norm(input.contiguous().view(shape), rm, rv, rep(weight), rep(bias), use_input_stats,
                        momentum, eps)
    with torch.no_grad():
        if running_mean is not None:
            running_mean.copy_(rm.view(b, c).mean(0))
        if running_var is not None:
            running_var.copy_(rv.view(b, c).mean(0))
    return out.view(input.shape)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['instance_norm']


class _InstanceNorm(_BatchNorm):
    _no_batch_dim = 2

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)
        if affine and not bias:
            self.register_parameter('bias', None)

    def _check_input_dim(self, input):
        n = self._no_batch_dim
        if input.dim() not in (n, n + 1):
            raise ValueError(f'expected {n}D or {n + 1}D input (got {input.dim()}D input)')

    def _apply_instance_norm(self, input):
        return functional.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                                        self.training or not self.track_running_stats,
                                        self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.size(feature_dim)}.")
            _C.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this warning "
                    f"by not passing in num_features, which is not used because affine=False")
        if input.dim() == self._no_batch_dim:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    _no_batch_dim = 4


class RNNCellBase(Module):
    _kind = 'RNNCell'

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty(num_chunks * hidden_size, input_size, device=device, dtype=dtype))
        self.weight_hh = Parameter(torch.empty(num_chunks * hidden_size, hidden_size, device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, device=device, dtype=dtype))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, device=device, dtype=dtype))
        else:
            self.register_parameter('bias_ih', None)
            self.register_parameter('bias_hh', None)
        self.reset_parameters()

    def extra_repr(self):
        s = f'{self.input_size}, {self.hidden_size}'
        if self.bias is not True:
            s += f', bias={self.bias}'
        if getattr(self, 'nonlinearity', 'tanh') != 'tanh':
            s += f', nonlinearity={self.nonlinearity}'
        return s

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        with torch.no_grad():
            for w in self.parameters():
                w.uniform_(-stdv, stdv)

    def _check(self, input, hx, name):
        # ATen's check_rnn_cell_forward_input / _hidden
        if input.size(1) != self.input_size:
            raise RuntimeError(f'input has inconsistent input_size: got {input.size(1)} expected {self.input_size}')
        if input.size(0) != hx.size(0):
            raise RuntimeError(f'Input batch size {input.size(0)} doesn\'t match hidden{name} batch size '
                               f'{hx.size(0)}')
        if hx.size(1) != self.hidden_size:
            raise RuntimeError(f'hidden{name} has inconsistent hidden_size: got {hx.size(1)}, expected '
                               f'{self.hidden_size}')

    def _batched(self, input, what):
        if input.dim() not in (1, 2):
            raise ValueError(f'{self._kind}: Expected {what} to be 1D or 2D, got {input.dim()}D instead')


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity='tanh', device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        self._batched(input, 'input')
        if hx is not None:
            self._batched(hx, 'hidden')
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        if self.nonlinearity not in ('tanh', 'relu'):
            raise RuntimeError(f'Unknown nonlinearity: {self.nonlinearity}')
        self._check(input, hx, '0')
        pre = functional.linear(hx, self.weight_hh, self.bias_hh) + functional.linear(input, self.weight_ih,
                                                                                      self.bias_ih)
        ret = pre.tanh() if self.nonlinearity == 'tanh' else pre.relu()
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    _kind = 'LSTMCell'

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f'LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead')
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f'LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead')
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            hx = (zeros, zeros)
        else:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if not is_batched else hx
        self._check(input, hx[0], '0')
        self._check(input, hx[1], '1')
        gates = functional.linear(hx[0], self.weight_hh, self.bias_hh) + functional.linear(input, self.weight_ih,
                                                                                           self.bias_ih)
        i, f, g, o = gates.chunk(4, 1)
        cy = f.sigmoid() * hx[1] + i.sigmoid() * g.tanh()
        hy = o.sigmoid() * cy.tanh()
        if not is_batched:
            return (hy.squeeze(0), cy.squeeze(0))
        return (hy, cy)


class GRUCell(RNNCellBase):
    _kind = 'GRUCell'

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        self._batched(input, 'input')
        if hx is not None:
            self._batched(hx, 'hidden')
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        self._check(input, hx, '0')
        ig = functional.linear(input, self.weight_ih, self.bias_ih).chunk(3, 1)
        hg = functional.linear(hx, self.weight_hh, self.bias_hh).chunk(3, 1)
        r = (hg[0] + ig[0]).sigmoid()
        z = (hg[1] + ig[1]).sigmoid()
        n = (ig[2] + hg[2] * r).tanh()
        ret = (hx - n) * z + n
        return ret if is_batched else ret.squeeze(0)


def _dropout_impl(input, p, train, feature, alpha):
    # ATen's _dropout_impl: noise from bernoulli_(1 - p) (per channel for the feature forms),
    # scaled by 1 / (1 - p); the alpha forms keep SELU's mean and variance instead
    if p < 0 or p > 1:
        raise RuntimeError(f'dropout probability has to be between 0 and 1, but got {p}')
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        return input * torch.zeros((), dtype=input.dtype, device=input.device)
    if feature:
        if input.dim() < 2:
            raise RuntimeError('Feature dropout requires at least 2 dimensions in the input')
        shape = [input.shape[0], input.shape[1]] + [1] * (input.dim() - 2)
        noise = torch.empty(shape, dtype=input.dtype, device=input.device)
    else:
        noise = torch.empty_like(input)
    noise.bernoulli_(1 - p)
    if alpha:
        a_ = 1.7580993408473766
        a = 1. / math.sqrt((a_ * a_ * p + 1) * (1 - p))
        b = noise.add(-1).mul_(a_ * a).add_(a_ * a * p)
        noise.mul_(a)
        return input * noise + b
    noise.div_(1 - p)
    return input * noise


def _dropout_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')


def _f_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _dropout_p(p)
    out = _dropout_impl(input, p, training, False, True)
    return _act_result(input, lambda t: out, inplace) if out is not input else input


def _f_feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _dropout_p(p)
    out = _dropout_impl(input, p, training, True, True)
    return _act_result(input, lambda t: out, inplace) if out is not input else input


def _f_dropout1d(input, p=0.5, training=True, inplace=False):
    _dropout_p(p)
    inp_dim = input.dim()
    if inp_dim not in (2, 3):
        raise RuntimeError(f'dropout1d: Expected 2D or 3D input, but received a {inp_dim}D input. Note that dropout1d '
                           f'exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel '
                           f'dimension, and an optional batch dimension (i.e. 2D or 3D inputs).')
    is_batched = inp_dim == 3
    x = input if is_batched else input.unsqueeze(0)
    out = _dropout_impl(x, p, training, True, False)
    if not is_batched:
        out = out.squeeze(0)
    return _act_result(input, lambda t: out, inplace) if out is not x and out is not input else input


def _f_dropout3d(input, p=0.5, training=True, inplace=False):
    _dropout_p(p)
    inp_dim = input.dim()
    if inp_dim not in (4, 5):
        _C.warn(f'dropout3d: Received a {inp_dim}-D input to dropout3d, which is deprecated and will result in an '
                f'error in a future release. To retain the behavior and silence this warning, please use dropout '
                f'instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial '
                f'dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).')
    is_batched = inp_dim == 5
    x = input if is_batched else input.unsqueeze(0)
    out = _dropout_impl(x, p, training, True, False)
    if not is_batched:
        out = out.squeeze(0)
    return _act_result(input, lambda t: out, inplace) if out is not x and out is not input else input


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['alpha_dropout', 'feature_alpha_dropout', 'dropout1d', 'dropout3d']


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f'p={self.p}, inplace={self.inplace}'


class Dropout1d(_DropoutNd):
    def forward(self, input):
        return functional.dropout1d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    def forward(self, input):
        return functional.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    def forward(self, input):
        return functional.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    def forward(self, input):
        return functional.feature_alpha_dropout(input, self.p, self.training)


# torch.nn.parameter's placeholders of a lazy module before its first forward (src/torch/uninitialized.rs):
# Tensor subclasses whose shape raises PyTorch's error
UninitializedParameter = _C.UninitializedParameter
UninitializedBuffer = _C.UninitializedBuffer


class LazyLinear(Linear):
    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self._lazy = (device, dtype, bias)
        self.register_parameter('weight', None)
        self.register_parameter('bias', None)
        self.__dict__['weight'] = UninitializedParameter(device=device, dtype=dtype)
        self.__dict__['bias'] = UninitializedParameter(device=device, dtype=dtype) if bias else None

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        if self._lazy is not None:
            destination[prefix + 'weight'] = self.__dict__['weight']
            if self._lazy[2]:
                destination[prefix + 'bias'] = self.__dict__['bias']
            return
        super()._save_to_state_dict(destination, prefix, keep_vars)

    def extra_repr(self):
        has_bias = self._lazy[2] if self._lazy is not None else self.bias is not None
        return f'in_features={self.in_features}, out_features={self.out_features}, bias={has_bias}'

    def forward(self, input):
        if self._lazy is not None:
            device, dtype, bias = self._lazy
            self._lazy = None
            self.in_features = input.shape[-1]
            self.register_parameter('weight', Parameter(torch.empty(self.out_features, self.in_features,
                                                                    device=device, dtype=dtype)))
            self.register_parameter('bias', Parameter(torch.empty(self.out_features, device=device, dtype=dtype))
                                    if bias else None)
            self.reset_parameters()
        return functional.linear(input, self.weight, self.bias)

    def _get_name(self):
        # PyTorch's cls_to_become: after its first forward the module prints as a Linear
        return 'LazyLinear' if self._lazy is not None else 'Linear'


def _im2col_positions(c, h, w, kernel, dilation, padding, stride):
    # (output positions, flat positions into the padded (c, h + 2p, w + 2p) image) in im2col's
    # order: channel, kernel row, kernel column, then output row, output column
    kh, kw = kernel
    dh, dw = dilation
    ph, pw = padding
    sh, sw = stride
    hp, wp = h + 2 * ph, w + 2 * pw
    oh = (hp - (dh * (kh - 1) + 1)) // sh + 1
    ow = (wp - (dw * (kw - 1) + 1)) // sw + 1
    pos = []
    for ch in range(c):
        for ki in range(kh):
            for kj in range(kw):
                for i in range(oh):
                    for j in range(ow):
                        pos.append(ch * hp * wp + (i * sh + ki * dh) * wp + (j * sw + kj * dw))
    return oh, ow, pos


def _f_unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    kernel, dil, pad, st = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    if input.dim() not in (3, 4):
        raise NotImplementedError(f'Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)')
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)
    n, c, h, w = x.shape
    oh, ow, pos = _im2col_positions(c, h, w, kernel, dil, pad, st)
    if pad[0] or pad[1]:
        x = functional.pad(x, (pad[1], pad[1], pad[0], pad[0]))
    flat = c * (h + 2 * pad[0]) * (w + 2 * pad[1])
    cols = x.reshape(n, flat).index_select(1, torch.tensor(pos, dtype=torch.int64))
    out = cols.reshape(n, c * kernel[0] * kernel[1], oh * ow)
    return out if batched else out.squeeze(0)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['unfold']


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return functional.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f'kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, '
                f'stride={self.stride}')


def _f_fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    out_size, kernel, dil, pad, st = (_pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding),
                                      _pair(stride))
    ndim = input.dim()
    if not ((ndim == 2 and input.shape[0] != 0 and input.shape[1] != 0)
            or (ndim == 3 and input.shape[1] != 0 and input.shape[2] != 0)):
        raise RuntimeError('Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero '
                           f'dimensions for input, but got: {list(input.shape)}')
    batched = ndim == 3
    x = input if batched else input.unsqueeze(0)
    n, planes, length = x.shape
    if planes % (kernel[0] * kernel[1]) != 0:
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f'got input.size(1)={planes} and kernel_size=({kernel[0]}, {kernel[1]})')
    c = planes // (kernel[0] * kernel[1])
    h, w = out_size
    oh, ow, _ = _im2col_positions(0, h, w, kernel, dil, pad, st)
    if oh < 1 or ow < 1:
        raise RuntimeError(f'Given output_size=({h}, {w}), kernel_size=({kernel[0]}, {kernel[1]}), '
                           f'dilation=({dil[0]}, {dil[1]}), padding=({pad[0]}, {pad[1]}), stride=({st[0]}, {st[1]}), '
                           f'calculated shape of the array of sliding blocks as ({oh}, {ow}), which is too small '
                           f'(non-positive)')
    if length != oh * ow:
        raise RuntimeError(f'Given output_size=({h}, {w}), kernel_size=({kernel[0]}, {kernel[1]}), '
                           f'dilation=({dil[0]}, {dil[1]}), padding=({pad[0]}, {pad[1]}), stride=({st[0]}, {st[1]}), '
                           f"expected size of input's dimension 2 to match the calculated number of sliding blocks "
                           f'{oh} * {ow} = {oh * ow}, but got input.size(2)={length}.')
    out = _C._composite('Col2ImBackward0', _col2im, x, c, h, w, kernel, dil, pad, st, oh, ow)
    return out if batched else out.squeeze(0)


def _col2im(x, c, h, w, kernel, dil, pad, st, oh, ow):
    # ATen's col2im: each column adds into its image position, the columns in (channel,
    # kernel row, kernel column) order; here one gather per kernel offset (a zero slot for the
    # positions it does not reach) added in that order, so every element sums as col2im sums
    n = x.shape[0]
    hp, wp = h + 2 * pad[0], w + 2 * pad[1]
    cols = x.reshape(n, c, kernel[0] * kernel[1], oh * ow)
    acc = torch.zeros(n, c, hp * wp, dtype=x.dtype, device=x.device)
    zero = torch.zeros(n, c, 1, dtype=x.dtype, device=x.device)
    for ki in range(kernel[0]):
        for kj in range(kernel[1]):
            idx = [oh * ow] * (hp * wp)
            for i in range(oh):
                for j in range(ow):
                    idx[(i * st[0] + ki * dil[0]) * wp + j * st[1] + kj * dil[1]] = i * ow + j
            src = torch.cat([cols[:, :, ki * kernel[1] + kj, :], zero], 2)
            acc = acc + src.index_select(2, torch.tensor(idx, dtype=torch.int64, device=x.device))
    return acc.reshape(n, c, hp, wp)[:, :, pad[0]:pad[0] + h, pad[1]:pad[1] + w].contiguous()


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['fold']


class Fold(Module):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return functional.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f'output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, '
                f'padding={self.padding}, stride={self.stride}')


def _f_embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode='mean',
                     sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    # F.embedding_bag's checks, in its order
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(f'embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it must '
                         f'have the same shape as the input ({input.shape})')
    if weight.dim() != 2:
        raise ValueError(f'weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}')
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError('if input is 2D, then offsets has to be None, as input is treated is a mini-batch of '
                             'fixed length sequences. However, found offsets of type Tensor')
        n, length = input.shape
        starts = [i * length for i in range(n + 1)]
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError('offsets has to be a 1D Tensor but got None')
        if offsets.dim() != 1:
            raise ValueError('offsets has to be a 1D Tensor')
        starts = offsets.tolist()
        if not include_last_offset:
            starts = starts + [input.numel()]
    else:
        raise ValueError(f'input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}')
    if mode not in ('sum', 'mean', 'max'):
        raise ValueError('mode has to be one of sum, mean or max')
    if max_norm is not None:
        raise NotImplementedError('cudatutor: embedding_bag with max_norm is not supported yet')
    if per_sample_weights is not None and mode != 'sum':
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  f"GitHub.")
    idx = input.reshape(-1)
    if padding_idx is not None and padding_idx < 0:
        padding_idx = weight.shape[0] + padding_idx
    return _C._composite('EmbeddingBagBackward0', _embedding_bag, weight, idx, starts, mode, per_sample_weights,
                         padding_idx)


_embedding_native = functional.embedding


def _f_embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 sparse=False):
    # functional.embedding: padding_idx checked first; with max_norm, the rows the input
    # names are renormalised in place first (ATen's embedding_renorm_: each distinct index
    # once, in ascending order, a row whose norm exceeds max_norm scaled by
    # max_norm / (norm + 1e-7)), then the lookup runs on the changed weight
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError('Padding_idx must be within num_embeddings')
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError('Padding_idx must be within num_embeddings')
    if max_norm is not None:
        input = input.contiguous()
        with torch.no_grad():
            for i in sorted(set(input.reshape(-1).tolist())):
                row = weight[i]
                norm = row.norm(norm_type).item()
                if norm > max_norm:
                    row.mul_(max_norm / (norm + 1e-7))
    return _embedding_native(input, weight, padding_idx, scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['embedding']


def _embedding_bag(weight, idx, starts, mode, per_sample_weights, padding_idx):
    # ATen's CPU embedding_bag: a bag's rows added one after another in the weight's dtype
    # (the mean then divides by the number of rows not at padding_idx), or their elementwise
    # max; an empty bag gives zeros. Weighted float32 bags without padding_idx take fbgemm's
    # kernel (index_select_scale_add's fast path): each row joins the bag by one fused
    # multiply-add, out = fma(w, row, out) from zero; otherwise each row is scaled, then added
    ids = idx.tolist()
    rows = weight.index_select(0, idx)
    fused = per_sample_weights is not None and weight.dtype == torch.float32 and padding_idx is None
    if per_sample_weights is not None and not fused:
        rows = rows * per_sample_weights.reshape(-1, 1)
    outs = []
    for b in range(len(starts) - 1):
        take = [p for p in range(starts[b], starts[b + 1]) if padding_idx is None or ids[p] != padding_idx]
        if not take:
            outs.append(torch.zeros(weight.shape[1], dtype=weight.dtype, device=weight.device))
        elif mode == 'max':
            # a later row replaces the running max only where strictly larger (the first max
            # keeps the gradient)
            acc = rows[take[0]]
            for p in take[1:]:
                acc = torch.where(rows[p] > acc, rows[p], acc)
            outs.append(acc)
        elif fused:
            w = per_sample_weights.reshape(-1, 1)
            acc = rows[take[0]] * w[take[0]]
            for p in take[1:]:
                acc = _fma32(rows[p], w[p], acc)
            outs.append(acc)
        else:
            acc = rows[take[0]]
            for p in take[1:]:
                acc = acc + rows[p]
            outs.append(acc / len(take) if mode == 'mean' else acc)
    if not outs:
        return torch.zeros(0, weight.shape[1], dtype=weight.dtype, device=weight.device)
    return torch.stack(outs)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['embedding_bag']


class EmbeddingBag(Module):
    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode='mean', sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if padding_idx is not None:
            if padding_idx > 0:
                assert padding_idx < num_embeddings, 'padding_idx must be within num_embeddings'
            elif padding_idx < 0:
                assert padding_idx >= -num_embeddings, 'padding_idx must be within num_embeddings'
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(torch.empty(num_embeddings, embedding_dim, device=device, dtype=dtype))
            self.reset_parameters()
        else:
            assert list(_weight.shape) == [num_embeddings, embedding_dim], \
                'Shape of weight does not match num_embeddings and embedding_dim'
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self):
        with torch.no_grad():
            self.weight.normal_(0.0, 1.0)
            if self.padding_idx is not None:
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return functional.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type,
                                        self.scale_grad_by_freq, self.mode, self.sparse, per_sample_weights,
                                        self.include_last_offset, self.padding_idx)

    def extra_repr(self):
        s = f'{self.num_embeddings}, {self.embedding_dim}'
        if self.max_norm is not None:
            s += f', max_norm={self.max_norm}'
        if self.norm_type != 2:
            s += f', norm_type={self.norm_type}'
        if self.scale_grad_by_freq is not False:
            s += f', scale_grad_by_freq={self.scale_grad_by_freq}'
        s += f', mode={self.mode!r}'
        if self.padding_idx is not None:
            s += f', padding_idx={self.padding_idx}'
        return s


def _ASMoutput(output, loss):
    # PyTorch's namedtuple ('_ASMoutput', ['output', 'loss']): a tuple with those fields
    return torch._C._return_types('_ASMoutput', ['output', 'loss'], [output, loss])


class AdaptiveLogSoftmaxWithLoss(Module):
    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False, device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError('cutoffs should be a sequence of length larger than 0')
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > (n_classes - 1)
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError('cutoffs should be a sequence of unique, positive integers sorted in an increasing '
                             'order, where each value is between 1 and n_classes-1')
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(self.in_features, self.head_size, bias=self.head_bias, device=device, dtype=dtype)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hsz = int(self.in_features // (self.div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(Linear(self.in_features, hsz, bias=False, device=device, dtype=dtype),
                                        Linear(hsz, osz, bias=False, device=device, dtype=dtype)))

    def reset_parameters(self):
        self.head.reset_parameters()
        for i2h, h2o in self.tail:
            i2h.reset_parameters()
            h2o.reset_parameters()

    def forward(self, input_, target_):
        targ_dim = target_.dim()
        if targ_dim == 1:
            if input_.size(0) != target_.size(0):
                raise RuntimeError('Input and target should have the same size in the batch dimension.')
            if input_.dim() != 2:
                raise RuntimeError(f'1D target tensor expects 2D input tensors, but found inputs with size '
                                   f'{input_.size()}')
        elif targ_dim == 0:
            if input_.dim() != 1:
                raise RuntimeError(f'0D target tensor expects 1D input tensors, but found inputs with size '
                                   f'{input_.size()}')
        else:
            raise RuntimeError('0D or 1D target tensor expected, multi-target not supported')
        is_batched = targ_dim > 0
        input = input_ if is_batched else input_.unsqueeze(0)
        target = target_ if is_batched else target_.unsqueeze(0)
        batch_size = target.size(0)
        targets = target.tolist()
        # PyTorch fills `output` (zeros) and `gather_inds` in place per cluster; here each row's
        # value is computed the same way and the rows are put back in order by one gather
        gather_inds = [0] * batch_size
        pieces, order = [], []
        used_rows = 0
        cutoff_values = [0] + self.cutoffs
        for i in range(len(cutoff_values) - 1):
            low_idx, high_idx = cutoff_values[i], cutoff_values[i + 1]
            rows = [r for r in range(batch_size) if low_idx <= targets[r] < high_idx]
            if not rows:
                continue
            if i == 0:
                for r in rows:
                    gather_inds[r] = targets[r]
                pieces.append(input.new_zeros(len(rows)))
            else:
                row_indices = torch.tensor(rows, dtype=torch.int64, device=input.device)
                relative_target = torch.tensor([targets[r] - low_idx for r in rows], dtype=torch.int64,
                                               device=input.device)
                cluster_output = self.tail[i - 1](input.index_select(0, row_indices))
                for r in rows:
                    gather_inds[r] = self.shortlist_size + i - 1
                cluster_logprob = functional.log_softmax(cluster_output, dim=1)
                pieces.append(cluster_logprob.gather(1, relative_target.unsqueeze(1)).squeeze(1))
            order = order + rows
            used_rows += len(rows)
        if used_rows != batch_size:
            raise RuntimeError(f'Target values should be in [0, {self.n_classes - 1}], but values in range '
                               f'[{target.min().item()}, {target.max().item()}] were found. ')
        position = [0] * batch_size
        for k, r in enumerate(order):
            position[r] = k
        output = torch.cat(pieces).index_select(0, torch.tensor(position, dtype=torch.int64, device=input.device))
        head_logprob = functional.log_softmax(self.head(input), dim=1)
        inds = torch.tensor(gather_inds, dtype=torch.int64, device=input.device)
        output = output + head_logprob.gather(1, inds.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        if not is_batched:
            output = output.squeeze(0)
        return _ASMoutput(output, loss)

    def _get_full_log_prob(self, input, head_output):
        head_logprob = functional.log_softmax(head_output, dim=1)
        parts = [head_logprob[:, :self.shortlist_size]]
        for i in range(len(self.cutoffs) - 1):
            cluster_logprob = functional.log_softmax(self.tail[i](input), dim=1)
            parts.append(cluster_logprob + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return torch.cat(parts, 1)

    def log_prob(self, input):
        return self._get_full_log_prob(input, self.head(input))

    def predict(self, input):
        head_output = self.head(input)
        output = torch.argmax(head_output, dim=1)
        not_in_shortlist = output >= self.shortlist_size
        if not not_in_shortlist.any():
            return output
        if not_in_shortlist.all():
            return torch.argmax(self._get_full_log_prob(input, head_output), dim=1)
        log_prob = self._get_full_log_prob(input[not_in_shortlist], head_output[not_in_shortlist])
        output[not_in_shortlist] = torch.argmax(log_prob, dim=1)
        return output


def _f_local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    dim = input.dim()
    if dim < 3:
        raise ValueError(f'Expected 3D or higher dimensionality input (got {dim} dimensions)')
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = functional.pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = functional.avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        # PyTorch's avg_pool3d with a (size, 1, 1) window: the same window sums as avg_pool2d's
        # (size, 1) window over (N, 1, C, rest)
        sizes = input.size()
        div = div.reshape(sizes[0], 1, sizes[1], -1)
        div = functional.pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = functional.avg_pool2d(div, (size, 1), stride=1).squeeze(1)
        div = div.reshape(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['local_response_norm']


class LocalResponseNorm(Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return functional.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return '{size}, alpha={alpha}, beta={beta}, k={k}'.format(**self.__dict__)


def _f_rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    # ATen's rrelu_with_noise: in training, each element <= 0 is scaled by its own draw from
    # U(lower, upper) on the default generator, in element order: a float64 draw between the
    # bounds as the input's dtype holds them (the kernel keeps lower and upper in its opmath
    # type), rounded to the dtype; in eval, leaky_relu with the mean slope
    if lower > upper:
        raise RuntimeError('Lower bound should be less than or equal to the upper bound')
    if not training:
        return functional.leaky_relu(input, (lower + upper) / 2, inplace)
    mask = input <= 0
    k = int(mask.sum().item())
    noise = torch.ones_like(input)
    if k > 0:
        lo, hi = lower, upper
        if input.dtype in (torch.float32, torch.float16, torch.bfloat16):
            lo = torch.tensor(lower, dtype=torch.float32).item()
            hi = torch.tensor(upper, dtype=torch.float32).item()
        draws = torch.empty(k, dtype=torch.float64).uniform_(lo, hi)
        with torch.no_grad():
            noise[mask] = draws.to(input.dtype)
    out = input * noise
    return _act_result(input, lambda t: out, inplace) if inplace else out


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['rrelu']


class RReLU(Module):
    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return functional.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        inplace_str = ', inplace=True' if self.inplace else ''
        return f'lower={self.lower}, upper={self.upper}{inplace_str}'
