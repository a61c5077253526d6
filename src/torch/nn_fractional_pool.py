

# ---- F.fractional_max_pool2d/3d and their modules: functional.py's output size and random
# samples (torch.rand of (N, C, dims) in the input's dtype), then FractionalMaxPool2d.cpp /
# FractionalMaxPool3d.cpp: per plane one start sequence per dim, computed in the input's dtype
# (generate_intervals), and the window maximum (a greater value or a NaN replaces it) ----


def _fractional_intervals(sample, in_size, out_size, pool, dtype):
    # generate_intervals<scalar_t>: alpha and (i + sample) * alpha rounded in scalar_t,
    # truncated to int
    seq = [0] * out_size
    if out_size > 1:
        alpha = (torch.tensor(float(in_size - pool), dtype=dtype) / torch.tensor(float(out_size - 1), dtype=dtype))
        s = torch.tensor(sample, dtype=dtype)
        base = int((s * alpha).item())
        for i in range(out_size - 1):
            seq[i] = int(((torch.tensor(float(i), dtype=dtype) + s) * alpha).item()) - base
    if out_size > 0:
        seq[out_size - 1] = in_size - pool
    return seq


def _fractional_max_pool(input, kernel_size, output_size, samples, nd, name):
    # fractional_max_pool_check_shape comes first
    if samples.dtype != input.dtype:
        raise RuntimeError('Expect _random_samples to have the same dtype as input')
    if samples.dim() != 3:
        raise RuntimeError(f'Expect _random_samples to have 3 dimensions, but got {samples.dim()}')
    if len(kernel_size) != nd:
        raise RuntimeError(f'{name}: kernel_size must either be a single Int or tuple of Ints')
    if len(output_size) != nd:
        raise RuntimeError(f'{name}: output_size must either be a single Int or tuple of Ints')
    what = 'fractional_max_pool2d()' if nd == 2 else 'fractional_max_pool3d_out()'
    if input.dim() not in (nd + 1, nd + 2):
        if nd == 2:
            raise RuntimeError(f'fractional_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}')
        raise RuntimeError(f'fractional_max_pool3d_out(): non-empty 4D or 5D (batch mode) tensor expected for '
                           f'input, but got: {input.dim()}')
    for i in range(1, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(f'{what}: Expected input to have non-zero size for non-batch dimensions, but '
                               f'got{list(input.shape)} with dimension {i} being empty.')
    batched = input.dim() == nd + 2
    x = input if batched else input.unsqueeze(0)
    sizes = list(x.shape[2:])
    names = ['height', 'width'] if nd == 2 else ['time', 'height', 'width']
    for k in range(nd):
        if output_size[k] + kernel_size[k] - 1 > sizes[k]:
            raise RuntimeError(f'{what}: pool {names[k]} {kernel_size[k]} too large relative to input '
                               f'{names[k]} {sizes[k]}')
    n, c = x.shape[0], x.shape[1]
    flat = x.reshape(n * c, -1).tolist()
    rs = samples.reshape(n * c if samples.shape[0] == n else c, nd).tolist()
    strides = [1] * nd
    for k in range(nd - 2, -1, -1):
        strides[k] = strides[k + 1] * sizes[k + 1]
    vals, idxs = [], []
    for plane in range(n * c):
        smp = rs[plane]
        # 2-D kernels take the width's sequence from sample 0 and the height's from sample 1;
        # 3-D ones time, height, width from samples 0, 1, 2
        order = [1, 0] if nd == 2 else [0, 1, 2]
        seqs = [_fractional_intervals(smp[order[k]], sizes[k], output_size[k], kernel_size[k], x.dtype)
                for k in range(nd)]
        data = flat[plane]
        for pos in _fractional_positions(output_size):
            start = [seqs[k][pos[k]] for k in range(nd)]
            best = -math.inf
            best_i = sum(start[k] * strides[k] for k in range(nd))
            for off in _fractional_positions(kernel_size):
                j = sum((start[k] + off[k]) * strides[k] for k in range(nd))
                v = data[j]
                if v > best or v != v:
                    best, best_i = v, j
            vals.append(best)
            idxs.append(best_i)
    shape = [n, c] + list(output_size)
    out = torch.tensor(vals, dtype=x.dtype, device=x.device).reshape(shape)
    ind = torch.tensor(idxs, dtype=torch.int64, device=x.device).reshape(shape)
    if not batched:
        out, ind = out.squeeze(0), ind.squeeze(0)
    return out, ind


def _fractional_positions(extent):
    out = [[]]
    for e in extent:
        out = [p + [i] for p in out for i in range(e)]
    return out


def _f_fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                             _random_samples=None):
    if output_size is None and output_ratio is None:
        raise ValueError('fractional_max_pool2d requires specifying either an output_size or an output_ratio')
    if output_size is None:
        if len(output_ratio) > 2:
            raise ValueError('fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.')
        ratio = _ntuple_of(2, output_ratio)
        output_size = [int(input.size(-2) * ratio[0]), int(input.size(-1) * ratio[1])]
    if _random_samples is None:
        n_batch = 1 if input.dim() == 3 else input.size(0)
        _random_samples = torch.rand(n_batch, input.size(-3), 2, dtype=input.dtype, device=input.device)
    v, i = _fractional_max_pool(input, list(_ntuple_of(2, kernel_size)), list(_ntuple_of(2, output_size)),
                                _random_samples, 2, 'fractional_max_pool2d')
    return (v, i) if return_indices else v


def _f_fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                             _random_samples=None):
    if output_size is None and output_ratio is None:
        raise ValueError('fractional_max_pool3d requires specifying either an output_size or an output_ratio')
    if output_size is None:
        ratio = _ntuple_of(3, output_ratio)
        output_size = [int(input.size(-3) * ratio[0]), int(input.size(-2) * ratio[1]),
                       int(input.size(-1) * ratio[2])]
    if _random_samples is None:
        n_batch = 1 if input.dim() == 4 else input.size(0)
        _random_samples = torch.rand(n_batch, input.size(-4), 3, dtype=input.dtype, device=input.device)
    v, i = _fractional_max_pool(input, list(_ntuple_of(3, kernel_size)), list(_ntuple_of(3, output_size)),
                                _random_samples, 3, 'fractional_max_pool3d')
    return (v, i) if return_indices else v


class FractionalMaxPool2d(Module):
    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        self.kernel_size = _ntuple_of(2, kernel_size)
        self.return_indices = return_indices
        self.register_buffer('_random_samples', _random_samples)
        self.output_size = _ntuple_of(2, output_size) if output_size is not None else None
        self.output_ratio = _ntuple_of(2, output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError('FractionalMaxPool2d requires specifying either an output size, or a pooling ratio')
        if output_size is not None and output_ratio is not None:
            raise ValueError('only one of output_size and output_ratio may be specified')
        if self.output_ratio is not None:
            if not (0 < self.output_ratio[0] < 1 and 0 < self.output_ratio[1] < 1):
                raise ValueError(f'output_ratio must be between 0 and 1 (got {output_ratio})')

    def forward(self, input):
        return functional.fractional_max_pool2d(input, self.kernel_size, self.output_size, self.output_ratio,
                                                self.return_indices, _random_samples=self._random_samples)


class FractionalMaxPool3d(Module):
    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        if (isinstance(kernel_size, int) and kernel_size <= 0) or (
                isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size)):
            raise ValueError(f'kernel_size must be greater than 0, but got {kernel_size}')
        self.kernel_size = _ntuple_of(3, kernel_size)
        self.return_indices = return_indices
        self.register_buffer('_random_samples', _random_samples)
        self.output_size = _ntuple_of(3, output_size) if output_size is not None else None
        self.output_ratio = _ntuple_of(3, output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError('FractionalMaxPool3d requires specifying either an output size, or a pooling ratio')
        if output_size is not None and output_ratio is not None:
            raise ValueError('only one of output_size and output_ratio may be specified')
        if self.output_ratio is not None:
            if not (0 < self.output_ratio[0] < 1 and 0 < self.output_ratio[1] < 1 and 0 < self.output_ratio[2] < 1):
                raise ValueError(f'output_ratio must be between 0 and 1 (got {output_ratio})')

    def forward(self, input):
        return functional.fractional_max_pool3d(input, self.kernel_size, self.output_size, self.output_ratio,
                                                self.return_indices, _random_samples=self._random_samples)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['fractional_max_pool2d', 'fractional_max_pool3d']
