

# ---- torch.nn, continued (src/torch/nn_conv_transpose.py): F.conv_transpose1d/2d/3d and
# nn.ConvTranspose1d/2d/3d. One N-d implementation: a transposed convolution is the plain
# convolution (conv1d/conv2d/conv3d of the preludes and the engine) of the input spread out by the
# stride (stride - 1 zeros between its elements), padded by dilation * (kernel - 1) - padding on
# each side (output_padding more on the right), with each group's weight transposed (in and out
# channels swapped) and flipped in every spatial dimension. ATen's checks in its order and words
# (_convolution, check_shape_forward with transposed=True, slow_conv_transpose*d's shape checks).


def _conv_transpose_sizes(name, v, nd):
    # conv_transposeNd's int[N] arguments: an int repeats, a sequence must have N values
    # (ATen's expand_param_if_needed)
    if isinstance(v, (tuple, list)):
        v = list(v)
        if len(v) == 1 and nd > 1:
            return v * nd
        if len(v) != nd:
            raise RuntimeError(f'expected {name} to be a single integer value or a list of {nd} values to match '
                               f'the convolution dimensions, but got {name}={v}')
        return v
    return [v] * nd


def _conv_transpose_nd(nd, input, weight, bias, stride, padding, output_padding, groups, dilation):
    name = f'conv_transpose{nd}d'
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f'Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, '
                           f'but got input of size: {list(input.shape)}')
    unbatched = input.dim() == nd + 1
    x = input.unsqueeze(0) if unbatched else input
    if weight.dim() < 3:
        raise RuntimeError('weight should have at least three dimensions')
    s = _conv_transpose_sizes('stride', stride, nd)
    p = _conv_transpose_sizes('padding', padding, nd)
    op = _conv_transpose_sizes('output_padding', output_padding, nd)
    dl = _conv_transpose_sizes('dilation', dilation, nd)
    ws = _conv_check_shape_forward(x, weight, bias, groups, p, s, dl, op)
    # slow_conv_transpose2d/3d's shape checks (a 1-d one runs as 2-d with a height of 1)
    axes = ['depth', 'height', 'width'][3 - max(nd, 2):]
    shown_op, shown_s, shown_dl = ([0] + op, [1] + s, [1] + dl) if nd == 1 else (op, s, dl)
    if any(op[i] >= s[i] and op[i] >= dl[i] for i in range(nd)):
        raise RuntimeError('output padding must be smaller than either stride or dilation, but got '
                           + ' '.join(f'output_padding_{a}: {v}' for a, v in zip(axes, shown_op)) + ' '
                           + ' '.join(f'stride_{a}: {v}' for a, v in zip(axes, shown_s)) + ' '
                           + ' '.join(f'dilation_{a}: {v}' for a, v in zip(axes, shown_dl)))
    sizes = [x.shape[2 + i] for i in range(nd)]
    outs = [(sizes[i] - 1) * s[i] - 2 * p[i] + dl[i] * (ws[2 + i] - 1) + op[i] + 1 for i in range(nd)]
    if any(v < 1 for v in outs):
        shown_in = ([1] if nd == 1 else []) + sizes
        shown_out = ([1] if nd == 1 else []) + outs
        raise RuntimeError('Given input size per channel: (' + ' x '.join(str(v) for v in shown_in)
                           + '). Calculated output size per channel: (' + ' x '.join(str(v) for v in shown_out)
                           + '). Output size is too small')
    if weight.dtype != x.dtype:
        raise RuntimeError(f'expected scalar type {_SCALAR_NAMES.get(x.dtype, x.dtype)} but found '
                           f'{_SCALAR_NAMES.get(weight.dtype, weight.dtype)}')
    y = _conv_transpose_columns(x, weight, bias, s, p, dl, groups, outs)
    return y.squeeze(0) if unbatched else y


def _spread_by_stride(t, dim, step):
    # step - 1 zeros after every element along dim but the last (x0 0 0 x1 0 0 x2), built with
    # cat and reshape so that autograd follows it
    if step == 1:
        return t
    shape = list(t.shape)
    zeros = torch.zeros(shape[:dim + 1] + [step - 1] + shape[dim + 1:], dtype=t.dtype, device=t.device)
    woven = torch.cat([t.unsqueeze(dim + 1), zeros], dim + 1)
    n = shape[dim]
    shape[dim] = n * step
    return woven.reshape(shape).narrow(dim, 0, (n - 1) * step + 1)


def _conv_transpose_columns(x, weight, bias, s, p, dl, groups, outs):
    # ATen's slow_conv_transpose2d/3d: per sample and group, columns = weight^T @ input (one row
    # per output channel and kernel offset), then col2im adds the columns of each kernel offset,
    # in offset order, into the (padded) output at stride steps; the padding is cut off and the
    # bias added last. So every output element sums its terms in ATen's order.
    nd = len(outs)
    n, cin = x.shape[0], x.shape[1]
    ws = list(weight.shape)
    ks, sizes = ws[2:], list(x.shape[2:])
    cg, og = cin // groups, ws[1]
    kk = math.prod(ks)
    full = [outs[i] + 2 * p[i] for i in range(nd)]
    spread = [(sizes[i] - 1) * s[i] + 1 for i in range(nd)]
    offsets = []
    for idx in range(kk):
        off, r = [], idx
        for i in range(nd - 1, -1, -1):
            off.insert(0, r % ks[i])
            r //= ks[i]
        offsets.append(off)
    samples = []
    for b in range(n):
        parts = []
        for g in range(groups):
            wg = weight[g * cg:(g + 1) * cg].reshape(cg, og * kk)
            cols = torch.mm(wg.t(), x[b, g * cg:(g + 1) * cg].reshape(cg, math.prod(sizes)))
            cols = cols.reshape([og * kk] + sizes)
            for i in range(nd):
                cols = _spread_by_stride(cols, 1 + i, s[i])
            cols = cols.reshape([og, kk] + spread)
            acc = torch.zeros([og] + full, dtype=cols.dtype, device=cols.device)
            for idx in range(kk):
                pad = []
                for i in range(nd - 1, -1, -1):
                    lo = offsets[idx][i] * dl[i]
                    pad += [lo, full[i] - lo - spread[i]]
                acc = acc + _f_pad(cols[:, idx], pad)
            parts.append(acc)
        samples.append(torch.cat(parts, 0) if groups > 1 else parts[0])
    y = torch.stack(samples, 0)
    if any(p):
        y = y[(slice(None), slice(None)) + tuple(slice(p[i], p[i] + outs[i]) for i in range(nd))]
    if bias is not None:
        y = y + bias.reshape([1, og * groups] + [1] * nd)
    return y


def _f_conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose_nd(1, input, weight, bias, stride, padding, output_padding, groups, dilation)


def _f_conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose_nd(2, input, weight, bias, stride, padding, output_padding, groups, dilation)


def _f_conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose_nd(3, input, weight, bias, stride, padding, output_padding, groups, dilation)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d']


class _ConvTransposeNd(_ConvNd):
    _spatial = 0

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        if padding_mode != 'zeros':
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        n = self._spatial
        super().__init__(in_channels, out_channels, _ntuple_of(n, kernel_size), _ntuple_of(n, stride),
                         _ntuple_of(n, padding), _ntuple_of(n, dilation), True, _ntuple_of(n, output_padding),
                         groups, bias, padding_mode, device, dtype)

    def _output_padding(self, input, output_size):
        # _ConvTransposeNd._output_padding: the output_padding that gives the requested size
        if output_size is None:
            return self.output_padding
        n = self._spatial
        non_spatial = 2 if input.dim() == n + 2 else 1
        output_size = list(output_size)
        if len(output_size) == non_spatial + n:
            output_size = output_size[non_spatial:]
        if len(output_size) != n:
            raise ValueError(f'ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} '
                             f'or {non_spatial + n} elements (got {len(output_size)})')
        min_sizes = [(input.shape[d + non_spatial] - 1) * self.stride[d] - 2 * self.padding[d]
                     + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        max_sizes = [min_sizes[d] + self.stride[d] - 1 for d in range(n)]
        for i in range(n):
            if output_size[i] < min_sizes[i] or output_size[i] > max_sizes[i]:
                raise ValueError(f'requested an output size of {output_size}, but valid sizes range '
                                 f'from {min_sizes} to {max_sizes} (for an input of {input.shape[2:]})')
        return [output_size[d] - min_sizes[d] for d in range(n)]

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size)
        return _conv_transpose_nd(self._spatial, input, self.weight, self.bias, self.stride, self.padding,
                                  output_padding, self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    _spatial = 1


class ConvTranspose2d(_ConvTransposeNd):
    _spatial = 2


class ConvTranspose3d(_ConvTransposeNd):
    _spatial = 3
