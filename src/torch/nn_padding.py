

# ---- torch.nn, continued (src/torch/nn_padding.py): the padding layers of
# torch/nn/modules/padding.py, each F.pad with its mode.


# _ntuple_of(n, v) is nn_pool_pad.py's (torch.nn.modules.utils._ntuple)


class _ConstantPadNd(Module):
    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, input):
        return functional.pad(input, self.padding, 'constant', self.value)

    def extra_repr(self):
        return f'padding={self.padding}, value={self.value}'


class ConstantPad1d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _ntuple_of(2, padding)


class ConstantPad2d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _ntuple_of(4, padding)


class ConstantPad3d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _ntuple_of(6, padding)


class _ReflectionPadNd(Module):
    def forward(self, input):
        return functional.pad(input, self.padding, 'reflect')

    def extra_repr(self):
        return f'{self.padding}'


class ReflectionPad1d(_ReflectionPadNd):
    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple_of(2, padding)


class ReflectionPad2d(_ReflectionPadNd):
    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple_of(4, padding)


class ReflectionPad3d(_ReflectionPadNd):
    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple_of(6, padding)


class _ReplicationPadNd(Module):
    def forward(self, input):
        return functional.pad(input, self.padding, 'replicate')

    def extra_repr(self):
        return f'{self.padding}'


class ReplicationPad1d(_ReplicationPadNd):
    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple_of(2, padding)


class ReplicationPad2d(_ReplicationPadNd):
    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple_of(4, padding)


class ReplicationPad3d(_ReplicationPadNd):
    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple_of(6, padding)


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f'{self.padding}'


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f'{self.padding}'


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f'{self.padding}'


# ---- the power-average pools (torch/nn/modules/pooling.py's _LPPoolNd and F.lp_pool1d/2d):
# avg_pool of x ** p, scaled back by the window size, then the p-th root ----


def _f_lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    if isinstance(norm_type, (int, float)):
        if norm_type == 0:
            raise ValueError(f'norm_type must be a non-zero value, but got {norm_type}')
        if norm_type == float('inf'):
            return functional.max_pool1d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float('inf'):
            return -functional.max_pool1d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = functional.avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = functional.avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * functional.relu(torch.abs(out))).mul(kernel_size).pow(1.0 / norm_type)


def _f_lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = _ntuple_of(2, kernel_size)
    if isinstance(norm_type, (int, float)):
        if norm_type == 0:
            raise ValueError(f'norm_type must be a non-zero value, but got {norm_type}')
        if norm_type == float('inf'):
            return functional.max_pool2d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float('inf'):
            return -functional.max_pool2d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = functional.avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = functional.avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * functional.relu(torch.abs(out))).mul(kw * kh).pow(1.0 / norm_type)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['lp_pool1d', 'lp_pool2d']


class _LPPoolNd(Module):
    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        if norm_type == 0:
            raise ValueError(f'norm_type must be a non-zero value, but got {norm_type}')
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return (f'norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, '
                f'ceil_mode={self.ceil_mode}')


class LPPool1d(_LPPoolNd):
    def forward(self, input):
        return functional.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    def forward(self, input):
        return functional.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


# ---- adaptive average pooling over three dims (ATen's cpu_adaptive_avg_pool3d) ----


def _f_adaptive_avg_pool3d(input, output_size):
    sizes = list(input.shape)
    if isinstance(output_size, (list, tuple)):
        # F.adaptive_avg_pool3d's _list_with_default: None keeps the input's size
        out = list(output_size)
        if len(sizes) <= len(out):
            raise ValueError(f'Input dimension should be at least {len(out) + 1}')
        out = [d if v is None else v for v, d in zip(out, sizes[len(sizes) - len(out):])]
    else:
        out = [output_size] * 3
    if len(out) != 3:
        raise RuntimeError('adaptive_avg_pool3d: output_size must be 3')
    if input.dim() not in (4, 5):
        raise RuntimeError(f'adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(input.shape)}')
    for i in range(1, input.dim()):
        if sizes[i] == 0:
            raise RuntimeError(f'adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch '
                               f'dimensions, but input has sizes {list(input.shape)} with dimension {i} being empty')
    if any(v < 0 for v in out):
        raise RuntimeError('adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 '
                           f'but received {{{out[0]}, {out[1]},{out[2]}}}')
    batched = input.dim() == 5
    x = input if batched else input.unsqueeze(0)
    return _C._composite('AdaptiveAvgPool3DBackward0', _adaptive_avg_pool3d, x, out, batched)


def _adaptive_avg_pool3d(x, out, batched):
    # each output cell: its window (start floor(o * I / O), end ceil((o + 1) * I / O)) summed
    # in (depth, row, column) order in the dtype, then divided by each window side in turn
    n, c, d, h, w = x.shape
    od, oh, ow = out
    cells = []
    for a in range(od):
        d0, d1 = _adaptive_window(a, d, od)
        for b in range(oh):
            h0, h1 = _adaptive_window(b, h, oh)
            for e in range(ow):
                w0, w1 = _adaptive_window(e, w, ow)
                s = None
                for i in range(d0, d1):
                    for j in range(h0, h1):
                        for k in range(w0, w1):
                            v = x[:, :, i, j, k]
                            s = v if s is None else s + v
                cells.append(s / (d1 - d0) / (h1 - h0) / (w1 - w0))
    if cells:
        y = torch.stack(cells, 2).reshape(n, c, od, oh, ow)
    else:
        y = x.new_zeros((n, c, od, oh, ow))
    return y if batched else y.squeeze(0)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['adaptive_avg_pool3d']


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    def forward(self, input):
        return functional.adaptive_avg_pool3d(input, self.output_size)


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode='nearest')


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode='bilinear', align_corners=True)


class CrossMapLRN2d(Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        # torch/nn/modules/_functions.py's CrossMapLRN2d.forward: a running sum of squares over
        # a window of channels (each channel's from the previous one, adding the square that
        # enters and subtracting the one that leaves), then scale ** -beta * input
        if input.dim() != 4:
            raise ValueError(f'CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.')
        channels = input.size(1)
        square = torch.pow(input, 2)
        pre_pad = int((self.size - 1) / 2 + 1)
        pre_pad_crop = min(pre_pad, channels)
        first = torch.zeros_like(square.select(1, 0))
        for c in range(pre_pad_crop):
            first = first + square.select(1, c)
        scales = [first]
        for c in range(1, channels):
            current = scales[c - 1]
            if c < channels - pre_pad + 1:
                current = current + square.select(1, c + pre_pad - 1)
            if c > pre_pad:
                current = current - square.select(1, c - pre_pad)
            scales.append(current)
        scale = torch.stack(scales, 1).mul(self.alpha / self.size).add(self.k)
        return torch.pow(scale, -self.beta).mul(input)

    def extra_repr(self):
        return f'{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}'
