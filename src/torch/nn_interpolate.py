

# ---- F.interpolate modes 'linear' and 'trilinear': ATen's generic upsampling kernel
# (cpu/UpSampleKernel.cpp, upsample_generic_Nd_kernel_impl with HelperInterpLinear). Per dim
# the source index and weights come from area_pixel_compute_scale /
# compute_source_index_and_lambda in the op's math type (float for float32); each output is
# t0 * w0 + t1 * w1 nested from the innermost dim out, which the compiled kernel evaluates as
# fma(t0, w0, t1 * w1) (measured on 2.15: 74 of 74 random linear and 72 of 72 trilinear
# float32 cases bit for bit; float64 contracts the same way). 'bilinear' and 'bicubic' are in
# nn_upsample2d.py ----


def _linear_weights(in_size, out_size, align_corners, scale_factor, dtype):
    # float32 arithmetic through 0-d float32 tensors (each op rounds), float64 in Python floats
    if dtype == torch.float64:
        r = float
    else:
        def r(v):
            return torch.tensor(v, dtype=torch.float32).item()
    if align_corners:
        scale = r(r(float(in_size - 1)) / r(float(out_size - 1))) if out_size > 1 else 0.0
    elif scale_factor is not None and scale_factor > 0:
        scale = r(1.0 / scale_factor)
    else:
        scale = r(r(float(in_size)) / r(float(out_size)))
    fused = None
    if dtype == torch.float64 and not align_corners and in_size != out_size:
        # fma(scale, o + 0.5, -0.5) in float64, as the compiled kernel contracts it
        o = torch.arange(out_size, dtype=torch.float64)
        fused = _fma64(torch.full((out_size,), scale, dtype=torch.float64), o + 0.5,
                       torch.full((out_size,), -0.5, dtype=torch.float64)).tolist()
    i0s, i1s, l0s, l1s = [], [], [], []
    for o in range(out_size):
        if in_size == out_size:
            i0, i1, l0, l1 = o, o, 1.0, 0.0
        else:
            if align_corners:
                src = r(scale * o)
            elif fused is not None:
                src = max(fused[o], 0.0)
            else:
                src = max(r(r(scale * r(o + 0.5)) - 0.5), 0.0)
            # floorf: a float64 position is narrowed to float first
            i0 = min(int(math.floor(_f32(src) if dtype == torch.float64 else src)), in_size - 1)
            l1 = min(max(r(src - i0), 0.0), 1.0)
            i1 = i0 + (1 if i0 < in_size - 1 else 0)
            l0 = r(1.0 - l1)
        i0s.append(i0)
        i1s.append(i1)
        l0s.append(l0)
        l1s.append(l1)
    return i0s, i1s, l0s, l1s


def _upsample_linear(input, output_size, scale_factors, align_corners):
    dim, ins, output_size = _upsample_sizes(input, output_size, scale_factors)
    if not input.is_floating_point():
        raise NotImplementedError(f'"upsample_linear_cpu" not implemented for '
                                  f'\'{_SCALARTYPE_OF.get(str(input.dtype), str(input.dtype))}\'')
    x = input
    for k in range(dim - 1, -1, -1):
        sf = scale_factors[k] if scale_factors is not None else None
        i0, i1, l0, l1 = _linear_weights(ins[k], output_size[k], align_corners, sf, input.dtype)
        d = 2 + k
        a = x.index_select(d, torch.tensor(i0, device=x.device))
        b = x.index_select(d, torch.tensor(i1, device=x.device))
        shape = [1] * x.dim()
        shape[d] = output_size[k]
        w0 = torch.tensor(l0, dtype=x.dtype, device=x.device).reshape(shape)
        w1 = torch.tensor(l1, dtype=x.dtype, device=x.device).reshape(shape)
        if x.dtype == torch.float32:
            # fma(t0, w0, t1 * w1): t0 * w0 is exact in a double, one rounding at the end
            x = (a.double() * w0.double() + (b * w1).double()).float()
        else:
            x = _fma64(a, w0, b * w1)
    return x


_SCALARTYPE_OF = {'torch.int64': 'Long', 'torch.int32': 'Int', 'torch.int16': 'Short', 'torch.int8': 'Char',
                  'torch.uint8': 'Byte', 'torch.bool': 'Bool'}
