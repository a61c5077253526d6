

# ---- pooling and padding modules that wrap a functional form: AdaptiveMaxPool2d/3d,
# AvgPool3d, CircularPad1d/2d/3d, and F.adaptive_max_pool3d (AdaptiveMaxPooling3d.cpp) ----


def _adaptive_max_cells3d(x, outs):
    # aten's adaptive_max_pool3d CPU kernel over the last three dims of x: each output cell's
    # window is planes floor(i*D/OD)..ceil((i+1)*D/OD) (rows and columns alike); a value
    # replaces the running maximum when greater or NaN (the last NaN wins, else the first
    # maximum); the index is flat over D*H*W
    d, h, w = x.shape[-3], x.shape[-2], x.shape[-1]
    od, oh, ow = outs
    lead = list(x.shape[:-3])
    vals, idxs = [], []
    for p in range(od):
        d0, d1 = (p * d) // od, -((-(p + 1) * d) // od)
        for i in range(oh):
            h0, h1 = (i * h) // oh, -((-(i + 1) * h) // oh)
            for j in range(ow):
                w0, w1 = (j * w) // ow, -((-(j + 1) * w) // ow)
                hh, ww = h1 - h0, w1 - w0
                win = x[..., d0:d1, h0:h1, w0:w1].reshape(lead + [(d1 - d0) * hh * ww])
                k = win.shape[-1]
                if win.is_floating_point():
                    nan = win.isnan()
                    filled = win.masked_fill(nan, -math.inf)
                    best = filled.amax(-1, keepdim=True)
                    first = (filled == best).long().argmax(-1)
                    last_nan = (k - 1) - nan.flip(-1).long().argmax(-1)
                    local = torch.where(nan.any(-1), last_nan, first)
                else:
                    best = win.amax(-1, keepdim=True)
                    local = (win == best).long().argmax(-1)
                vals.append(win.gather(-1, local.unsqueeze(-1)).squeeze(-1))
                ld, rest = local // (hh * ww), local % (hh * ww)
                idxs.append(((d0 + ld) * h + (h0 + rest // ww)) * w + (w0 + rest % ww))
    if not vals:
        return (torch.zeros(lead + [od, oh, ow], dtype=x.dtype, device=x.device),
                torch.zeros(lead + [od, oh, ow], dtype=torch.int64, device=x.device))
    return (torch.stack(vals, -1).reshape(lead + [od, oh, ow]),
            torch.stack(idxs, -1).reshape(lead + [od, oh, ow]))


def _f_adaptive_max_pool3d(input, output_size, return_indices=False):
    # functional.py's _list_with_default, then the meta function's checks in its order
    if isinstance(output_size, int):
        out = [output_size] * 3
    else:
        out = list(output_size)
        if input.dim() <= len(out):
            raise ValueError(f'Input dimension should be at least {len(out) + 1}')
        base = list(input.shape)[input.dim() - len(out):]
        out = [b if v is None else v for v, b in zip(out, base)]
    if len(out) != 3:
        raise RuntimeError('adaptive_max_pool3d(): internal error: output_size.size() must be 3')
    for i in range(1, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(f'adaptive_max_pool3d(): Expected input to have non-zero size for non-batch '
                               f'dimensions, but input has sizes {list(input.shape)} with dimension {i} being empty')
    if input.dim() not in (4, 5):
        raise RuntimeError(f'adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: {list(input.shape)}')
    for o in out:
        if o < 0:
            raise RuntimeError(f'Trying to create tensor with negative dimension {o}: '
                               f'{list(input.shape[:-3]) + list(out)}')
    v, i = _adaptive_max_cells3d(input, out)
    return (v, i) if return_indices else v


class _AdaptiveMaxPoolNd(Module):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self):
        return f'output_size={self.output_size}'


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    def forward(self, input):
        return functional.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    def forward(self, input):
        return functional.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class AvgPool3d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return functional.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                     self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}'


def _ntuple_of(n, v):
    # torch.nn.modules.utils._ntuple: an iterable as a tuple, else n copies
    if isinstance(v, (tuple, list)):
        return tuple(v)
    return tuple([v] * n)


class _CircularPadNd(Module):
    _dims = (2, 3)

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple_of(2 * (self._dims[0] - 1), padding)

    def forward(self, input):
        if input.dim() not in self._dims:
            raise ValueError(f'expected {self._dims[0]}D or {self._dims[1]}D input (got {input.dim()}D input)')
        return functional.pad(input, self.padding, 'circular')

    def extra_repr(self):
        return f'{self.padding}'


class CircularPad1d(_CircularPadNd):
    _dims = (2, 3)


class CircularPad2d(_CircularPadNd):
    _dims = (3, 4)


class CircularPad3d(_CircularPadNd):
    _dims = (4, 5)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['adaptive_max_pool3d']
