

# ---- F.conv3d and nn.Conv3d: ATen's checks in their order (conv3d_symint, _convolution_mode,
# check_shape_forward), then slow_conv3d's computation: the input's columns (vol2col: rows
# ordered channel, kd, kh, kw) times the flattened weight, over the bias, per sample and group ----

_CONV_TYPE_NAMES = {'torch.float32': 'float', 'torch.float64': 'double', 'torch.int64': 'long int',
                    'torch.int32': 'int', 'torch.int16': 'short int', 'torch.int8': 'signed char',
                    'torch.uint8': 'unsigned char', 'torch.bool': 'bool', 'torch.float16': 'c10::Half',
                    'torch.bfloat16': 'c10::BFloat16'}


def _conv3d_padding(padding, weight, stride, dilation):
    # (per-dim left padding, per-dim extra on the right) for a string or numeric padding
    if not isinstance(padding, str):
        return list(_triple(padding)), [0, 0, 0]
    if weight.dim() < 3:
        raise RuntimeError('weight should have at least three dimensions')
    nd = weight.dim() - 2
    if padding == 'valid':
        return [0] * nd, [0] * nd
    if padding != 'same':
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    left, extra = [], []
    for i in range(nd):
        total = dilation[min(i, len(dilation) - 1)] * (weight.shape[2 + i] - 1)
        left.append(total // 2)
        extra.append(total - 2 * (total // 2))
    return left, extra


def _conv_check_shape_forward(x, weight, bias, groups, p, s, d, output_padding=None):
    # ATen's checks of a convolution's arguments in their order and words (_convolution's
    # check_input_shape_forward and check_shape_forward), for conv3d and, with its
    # output_padding, conv_transpose1d/2d/3d; returns the weight's sizes
    transposed = output_padding is not None
    if groups <= 0:
        raise RuntimeError('non-positive groups is not supported')
    if any(v < 0 for v in p):
        raise RuntimeError('negative padding is not supported')
    if transposed and any(v < 0 for v in output_padding):
        raise RuntimeError('negative output_padding is not supported')
    if any(v <= 0 for v in s):
        raise RuntimeError('non-positive stride is not supported')
    if any(v < 0 for v in d):
        raise RuntimeError('dilation should be greater than zero')
    ws = list(weight.shape)
    if weight.dim() != x.dim():
        # PyTorch prints "weight[...]" here, and "weight [...]" for a transposed convolution
        gap = ' ' if transposed else ''
        raise RuntimeError(f'Expected {weight.dim()}-dimensional input for {weight.dim()}-dimensional weight{gap}{ws}, '
                           f'but got {x.dim()}-dimensional input of size {list(x.shape)} instead')
    if ws[0] < groups:
        raise RuntimeError(f'Given groups={groups}, expected weight to be at least {groups} at dimension 0, '
                           f'but got weight of size {ws} instead')
    if ws[0] % groups != 0:
        # ATen prints the sizes inside a second pair of brackets here (measured, both kinds)
        raise RuntimeError(f'Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, '
                           f'but got weight of size [{ws}] instead')
    # a transposed weight is (in, out / groups, ...): the channel counts swap places
    if transposed:
        given, channels, outs = 'transposed=1', ws[0], ws[1] * groups
    else:
        given, channels, outs = f'groups={groups}', ws[1] * groups, ws[0]
    if x.shape[1] != channels:
        raise RuntimeError(f'Given {given}, weight of size {ws}, expected input{list(x.shape)} to have '
                           f'{channels} channels, but got {x.shape[1]} channels instead')
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != outs):
        given = 'transposed=1, weight' if transposed else 'weight'
        raise RuntimeError(f'Given {given} of size {ws}, expected bias to be 1-dimensional with {outs} elements, '
                           f'but got bias of size {list(bias.shape)} instead')
    return ws


def _f_conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f'Input type ({_CONV_TYPE_NAMES.get(str(input.dtype), str(input.dtype))}) and bias type '
                           f'({_CONV_TYPE_NAMES.get(str(bias.dtype), str(bias.dtype))}) should be the same')
    if input.dim() not in (4, 5):
        raise RuntimeError(f'Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: '
                           f'{list(input.shape)}')
    unbatched = input.dim() == 4
    x = input.unsqueeze(0) if unbatched else input
    s, d = list(_triple(stride)), list(_triple(dilation))
    p, extra = _conv3d_padding(padding, weight, s, d)
    ws = _conv_check_shape_forward(x, weight, bias, groups, p, s, d)
    padded = [x.shape[2 + i] + 2 * p[i] + extra[i] for i in range(3)]
    kernel = [d[i] * (ws[2 + i] - 1) + 1 for i in range(3)]
    if any(kernel[i] > padded[i] for i in range(3)):
        raise RuntimeError('Calculated padded input size per channel: (' + ' x '.join(str(v) for v in padded)
                           + '). Kernel size: (' + ' x '.join(str(v) for v in kernel)
                           + "). Kernel size can't be greater than actual input size")
    if any(p) or any(extra):
        x = functional.pad(x, [p[2], p[2] + extra[2], p[1], p[1] + extra[1], p[0], p[0] + extra[0]])
    n, c = x.shape[0], x.shape[1]
    outs = [(padded[i] - kernel[i]) // s[i] + 1 for i in range(3)]
    length = outs[0] * outs[1] * outs[2]
    cg, og = c // groups, ws[0] // groups
    ksize = ws[2] * ws[3] * ws[4]
    w2 = weight.reshape(ws[0], cg * ksize)
    samples = []
    for b in range(n):
        rows = []
        for ch in range(c):
            for a in range(ws[2]):
                for h in range(ws[3]):
                    for w in range(ws[4]):
                        sl = x[b, ch,
                               a * d[0]: a * d[0] + s[0] * (outs[0] - 1) + 1: s[0],
                               h * d[1]: h * d[1] + s[1] * (outs[1] - 1) + 1: s[1],
                               w * d[2]: w * d[2] + s[2] * (outs[2] - 1) + 1: s[2]]
                        rows.append(sl.reshape(length))
        cols = torch.stack(rows, 0)
        parts = []
        for g in range(groups):
            wg = w2[g * og:(g + 1) * og]
            cgc = cols[g * cg * ksize:(g + 1) * cg * ksize]
            if bias is not None:
                parts.append(torch.addmm(bias[g * og:(g + 1) * og].unsqueeze(1), wg, cgc))
            else:
                parts.append(torch.mm(wg, cgc))
        samples.append(torch.cat(parts, 0).reshape([ws[0]] + outs))
    y = torch.stack(samples, 0)
    return y.squeeze(0) if unbatched else y


class Conv3d(_ConvNd):
    __init__ = _conv_init(_triple)
    _conv_function = staticmethod(_f_conv3d)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['conv3d']
