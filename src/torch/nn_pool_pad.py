

# ---- pooling and padding modules that wrap a functional form: AdaptiveMaxPool2d/3d,
# AvgPool3d, CircularPad1d/2d/3d, and F.adaptive_max_pool3d (AdaptiveMaxPooling3d.cpp) ----


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
    v, i = _adaptive_max_cells(input, out)
    return (v, i) if return_indices else v


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    def forward(self, input):
        return functional.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    def forward(self, input):
        return functional.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class AvgPool3d(_AvgPoolNd):
    def forward(self, input):
        return functional.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                     self.count_include_pad, self.divisor_override)


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
