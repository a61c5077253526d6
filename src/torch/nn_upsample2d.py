

# ---- F.interpolate modes 'bilinear' and 'bicubic' (src/torch/nn_upsample2d.py), op for op as
# ATen's CPU kernels (aten/src/ATen/native/cpu/UpSampleKernel.cpp) compute them, float32 in
# float32 and float64 in float64:
# - bilinear takes cpu_upsample_linear_channels_last whenever Hout + Wout <= 128 (or C == 3 on
#   one thread): per output the source position is fma(scale, o + 0.5, -0.5) (align_corners:
#   scale * o), the four weights h*w, and the sum as the compiler contracts
#   i00*w00 + i01*w01 + i10*w10 + i11*w11: fma(i11, w11, fma(i10, w10, fma(i00, w00, i01*w01))).
#   Larger outputs take the generic kernel, which nn_interpolate.py's _upsample_linear follows.
# - bicubic takes the generic kernel: per dim four taps clamped into the input, the weights of
#   get_cubic_upsample_coefficients (A = -0.75) with the compiled kernel's contractions, and
#   the four-term sums w-dim first, contracted like the bilinear sum.
# Measured on 2.15 (float32 and float64, one thread): 34 of 38 random bilinear cases with C < 8
# and 30 of 30 random bicubic cases bit for bit; the bilinear kernel's vector lanes (8 float32
# or 4 float64 channels at a time) sum in another order, not matched yet. ----


def _ups_fma(a, b, c):
    # the kernels' fused multiply-add in the input's dtype
    if a.dtype == torch.float64:
        return _fma64(a, b, c)
    return _fma32(a, b, c)


def _ups_scale(in_size, out_size, align_corners, scale_factor, dt, dev):
    # area_pixel_compute_scale in the op's math type, as a 0-d tensor
    if align_corners:
        if out_size > 1:
            return torch.tensor(float(in_size - 1), dtype=dt, device=dev) / \
                torch.tensor(float(out_size - 1), dtype=dt, device=dev)
        return torch.tensor(0.0, dtype=dt, device=dev)
    if scale_factor is not None and scale_factor > 0:
        return torch.tensor(1.0 / scale_factor, dtype=dt, device=dev)
    return torch.tensor(float(in_size), dtype=dt, device=dev) / torch.tensor(float(out_size), dtype=dt, device=dev)


def _ups_source(in_size, out_size, align_corners, scale_factor, dt, dev, cubic):
    # area_pixel_compute_source_index then guard_index_and_lambda: the index is floorf of the
    # position (a float64 position narrowed to float first), the fraction clamped to [0, 1]
    scale = _ups_scale(in_size, out_size, align_corners, scale_factor, dt, dev)
    o = torch.arange(out_size, dtype=dt, device=dev)
    if align_corners:
        src = o * scale
    else:
        src = _ups_fma(scale.expand(out_size), o + 0.5, torch.full((out_size,), -0.5, dtype=dt, device=dev))
        if not cubic:
            src = src.clamp(min=0)
    i0 = torch.floor(src.to(torch.float32)).long().clamp(max=in_size - 1)
    lam = (src - i0.to(dt)).clamp(0, 1)
    return i0, lam


def _ups_sum4(vals, weights):
    # t0*w0 + t1*w1 + t2*w2 + t3*w3 as GCC contracts it: the first product fused with the
    # second, each later product fused into the running sum
    out = _ups_fma(vals[0], weights[0], vals[1] * weights[1])
    out = _ups_fma(vals[2], weights[2], out)
    return _ups_fma(vals[3], weights[3], out)


def _ups_check(input, output_size, kernel):
    ins = list(input.shape[2:])
    if any(s <= 0 for s in ins) or any(s <= 0 for s in output_size):
        raise RuntimeError('Input and output sizes should be greater than 0, but got input (H: '
                           f'{ins[0]}, W: {ins[1]}) output (H: {output_size[0]}, W: {output_size[1]})')
    if not input.is_floating_point():
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f'\'{_SCALARTYPE_OF.get(str(input.dtype), str(input.dtype))}\'')


def _ups_output_size(input, output_size, scale_factors):
    if output_size is None:
        return [int(math.floor(float(input.shape[2 + i] * scale_factors[i]))) for i in range(2)]
    return list(output_size)


def _upsample_bilinear2d(input, output_size, scale_factors, align_corners):
    output_size = _ups_output_size(input, output_size, scale_factors)
    channels_last = output_size[0] + output_size[1] <= 128 or input.shape[1] == 3
    _ups_check(input, output_size,
               'upsample_bilinear2d_channels_last' if channels_last else 'compute_indices_weights_linear')
    if not channels_last:
        return _upsample_linear(input, output_size, scale_factors, align_corners)
    dt, dev = input.dtype, input.device
    taps = []
    for k in range(2):
        in_size, out_size = input.shape[2 + k], output_size[k]
        if in_size == out_size:
            i0 = torch.arange(out_size, device=dev)
            i1 = i0
            l0 = torch.ones(out_size, dtype=dt, device=dev)
            l1 = torch.zeros(out_size, dtype=dt, device=dev)
        else:
            sf = scale_factors[k] if scale_factors is not None else None
            i0, l1 = _ups_source(in_size, out_size, align_corners, sf, dt, dev, False)
            i1 = i0 + (i0 < in_size - 1).long()
            l0 = 1.0 - l1
        taps.append((i0, i1, l0, l1))
    (h0, h1, hl0, hl1), (w0, w1, wl0, wl1) = taps
    hl0, hl1 = hl0.reshape(-1, 1), hl1.reshape(-1, 1)
    wl0, wl1 = wl0.reshape(1, -1), wl1.reshape(1, -1)
    r0, r1 = input.index_select(2, h0), input.index_select(2, h1)
    vals = [r0.index_select(3, w0), r0.index_select(3, w1), r1.index_select(3, w0), r1.index_select(3, w1)]
    weights = [hl0 * wl0, hl0 * wl1, hl1 * wl0, hl1 * wl1]
    out = _ups_sum4(vals, weights)
    if not input.requires_grad:
        return out
    # the backward kernel adds (h * w) * grad per output in row-major order, taps 00, 01, 10,
    # 11: a gather of every tap in that order, whose backward (index_add) sums the same way
    # (measured: 41 of 41 random cases with a grad of ones, as loss.sum() gives; other grads
    # can differ where the kernel fuses the product into the sum)
    W = input.shape[3]
    taps_idx = torch.stack([(h0.reshape(-1, 1) * W + w0.reshape(1, -1)), (h0.reshape(-1, 1) * W + w1.reshape(1, -1)),
                            (h1.reshape(-1, 1) * W + w0.reshape(1, -1)), (h1.reshape(-1, 1) * W + w1.reshape(1, -1))], -1)
    taps_w = torch.stack([w.expand(output_size) for w in weights], -1)
    return _ups_grad_path(input, out, taps_idx.reshape(-1), [taps_w.reshape(-1)], output_size, 4)


def _ups_grad_path(input, out, taps_idx, taps_w, output_size, ntaps):
    # out's values, with the gradient of sum_t x[taps_idx[t]] * w0[t] (* w1[t]): the gather's
    # backward accumulates in taps_idx's order. A non-finite input keeps the plain graph
    # (inf - inf would reach the values).
    if not bool(torch.isfinite(input).all()):
        return out
    n, c, h, w = input.shape
    flat = input.reshape(n * c, h * w)
    lin = flat.index_select(1, taps_idx)
    for tw in taps_w:
        lin = lin * tw
    lin = lin.reshape(n * c, output_size[0] * output_size[1], ntaps).sum(-1).reshape(n, c, output_size[0], output_size[1])
    return out.detach() + (lin - lin.detach())


def _ups_cubic_weights(lam):
    # get_cubic_upsample_coefficients with A = -0.75, as compiled: cubic_convolution1's first
    # multiply-add fused, cubic_convolution2's first two
    dt = lam.dtype

    def c(v):
        return torch.full(lam.shape, v, dtype=dt, device=lam.device)

    def conv1(x):
        return _ups_fma(c(1.25), x, c(-2.25)) * x * x + 1.0

    def conv2(x):
        return _ups_fma(_ups_fma(c(-0.75), x, c(3.75)), x, c(-6.0)) * x + 3.0

    x2 = 1.0 - lam
    return [conv2(lam + 1.0), conv1(lam), conv1(x2), conv2(x2 + 1.0)]


def _upsample_bicubic2d(input, output_size, scale_factors, align_corners):
    output_size = _ups_output_size(input, output_size, scale_factors)
    _ups_check(input, output_size, 'compute_indices_weights_cubic')
    dt, dev = input.dtype, input.device
    taps = []
    for k in range(2):
        in_size, out_size = input.shape[2 + k], output_size[k]
        sf = scale_factors[k] if scale_factors is not None else None
        i0, lam = _ups_source(in_size, out_size, align_corners, sf, dt, dev, True)
        idx = [(i0 + (j - 1)).clamp(0, in_size - 1) for j in range(4)]
        taps.append((idx, _ups_cubic_weights(lam)))
    (hidx, hw), (widx, ww) = taps
    hw = [w.reshape(-1, 1) for w in hw]
    ww = [w.reshape(1, -1) for w in ww]
    rows = []
    for j in range(4):
        r = input.index_select(2, hidx[j])
        rows.append(_ups_sum4([r.index_select(3, widx[k]) for k in range(4)], ww))
    # the gradient is this graph's: the backward kernel's fused accumulation of
    # (grad * yc) * xc is not matched yet
    return _ups_sum4(rows, hw)
