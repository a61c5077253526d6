

# ---- F.scaled_dot_product_attention (src/torch/nn_sdpa.py) as PyTorch 2.15 runs it on the CPU:
# sdp_utils picks the flash kernel (aten/src/ATen/native/cpu/FlashAttentionKernel.cpp) unless
# dropout is on or the shapes need the composite _scaled_dot_product_attention_math. The flash
# kernel's q @ k^T and p @ v are gemms that accumulate one product at a time with fused
# multiply-adds, the scores are scaled after the product, exp(s - max) and its row sum are
# scalar for rows shorter than a vector; the output is the sum times 1 / rowsum. Measured on
# 2.15, one thread: the 4 float32 OpInfo samples without dropout bit for bit, 21 of 30 random
# small float32 cases (the others 1 ulp apart: the gemm's order differs for some shapes), not
# float64, nor rows of 8 or more keys, where the kernel's vector exp_u20 runs; the math path
# matches the dropout samples bit for bit. ----


def _sdpa_check(query, key, value, attn_mask):
    if query.dtype != key.dtype or query.dtype != value.dtype:
        raise RuntimeError('Expected query, key, and value to have the same dtype, but got query.dtype: '
                           f'{_sdpa_dtype_name(query.dtype)} key.dtype: {_sdpa_dtype_name(key.dtype)} and '
                           f'value.dtype: {_sdpa_dtype_name(value.dtype)} instead.')
    if attn_mask is not None and attn_mask.dtype != torch.bool and attn_mask.dtype != query.dtype:
        raise RuntimeError('Expected attn_mask dtype to be bool or float or to match query dtype, but got '
                           f'attn_mask.dtype: {_sdpa_dtype_name(attn_mask.dtype)} and  query.dtype: '
                           f'{_sdpa_dtype_name(query.dtype)} instead.')


def _sdpa_dtype_name(dt):
    # c10's ScalarType names as the sdp checks print them
    return {torch.float32: 'float', torch.float64: 'double', torch.float16: 'c10::Half',
            torch.bfloat16: 'c10::BFloat16', torch.int64: 'long int', torch.int32: 'int',
            torch.bool: 'bool'}.get(dt, str(dt).replace('torch.', ''))


def _sdpa_bool_mask(mask, dtype):
    # convert_boolean_attn_mask: False (not attended) becomes -inf, True 0
    return torch.where(mask.logical_not(), -math.inf, torch.tensor(0.0, dtype=dtype, device=mask.device))


def _sdpa_safe_softmax(x):
    # _safe_softmax: softmax, but a row whose every entry is -inf gives zeros, not nan
    out = torch.softmax(x, -1)
    masked = (x == -math.inf).all(-1, keepdim=True)
    return torch.where(masked, torch.zeros((), dtype=out.dtype, device=out.device), out)


def _sdpa_math(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    # _scaled_dot_product_attention_math: q and k each scaled by sqrt(scale) before the
    # product, the mask added, _safe_softmax, dropout, then the product with v
    negative = scale is not None and scale < 0.0
    base = (abs(scale) if negative else scale) if scale is not None else 1.0 / math.sqrt(query.shape[-1])
    factor = math.sqrt(base)
    q = query * (0.0 - factor if negative else factor)
    if is_causal:
        L, S = query.shape[-2], key.shape[-2]
        attn_mask = _sdpa_bool_mask(torch.ones(L, S, dtype=torch.bool, device=query.device).tril(), query.dtype)
    if enable_gqa:
        qh = query.shape[-3]
        if key.shape[-3] != qh:
            key = key.repeat_interleave(qh // key.shape[-3], -3)
        if value.shape[-3] != qh:
            value = value.repeat_interleave(qh // value.shape[-3], -3)
    attn = torch.matmul(q, key.transpose(-2, -1) * factor)
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = _sdpa_safe_softmax(attn)
    if dropout_p > 0.0:
        attn = functional.dropout(attn, dropout_p, True)
    return torch.matmul(attn, value)


def _sdpa_fma(a, b, c):
    if a.dtype == torch.float64:
        return _fma64(a, b, c)
    return _fma32(a, b, c)


def _sdpa_gemm(a, b):
    # a (..., M, K) @ b (..., K, N) one k at a time, each step a fused multiply-add
    out = a[..., :, 0:1] * b[..., 0:1, :]
    for k in range(1, a.shape[-1]):
        out = _sdpa_fma(a[..., :, k:k + 1], b[..., k:k + 1, :], out)
    return out


def _sdpa_flash(query, key, value, attn_mask, is_causal, scale):
    dt = query.dtype
    factor = torch.tensor(1.0 / math.sqrt(query.shape[-1]) if scale is None else scale,
                          dtype=torch.float32, device=query.device).to(dt)
    L, S = query.shape[-2], key.shape[-2]
    scores = _sdpa_gemm(query, key.transpose(-2, -1))
    if attn_mask is not None:
        # _scale_attn_mask_fusion_kernel: score * scale + mask, contracted
        scores = _sdpa_fma(scores, factor.expand(scores.shape), attn_mask.expand(scores.shape))
    else:
        scores = scores * factor
    if is_causal:
        keep = torch.ones(L, S, dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(keep.logical_not(), -math.inf)
    top = scores.max(-1, keepdim=True).values
    empty = top == -math.inf
    shifted = torch.where(empty, torch.zeros((), dtype=dt, device=query.device), scores - top)
    if dt == torch.float32:
        # std::exp on float rounds the exact value once; float64's exp then one rounding
        p = shifted.double().exp().float()
    else:
        p = shifted.exp()
    p = torch.where(empty, torch.zeros((), dtype=dt, device=query.device), p)
    total = p[..., 0:1]
    for j in range(1, S):
        total = total + p[..., j:j + 1]
    out = _sdpa_gemm(p, value)
    total = torch.where(empty, torch.ones((), dtype=dt, device=query.device), total)
    return out * (1.0 / total)


def _f_scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                    enable_gqa=False):
    _sdpa_check(query, key, value, attn_mask)
    if is_causal and attn_mask is not None:
        raise RuntimeError('_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True')
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        attn_mask = _sdpa_bool_mask(attn_mask, query.dtype)
    same_heads = query.dim() < 3 or (key.shape[-3] == query.shape[-3] and value.shape[-3] == query.shape[-3])
    flash = (dropout_p == 0.0 and query.dim() >= 2 and query.shape[-1] == key.shape[-1] == value.shape[-1]
             and same_heads and query.shape[-2] > 0 and key.shape[-2] > 0 and query.shape[-1] > 0
             and query.dtype in (torch.float32, torch.float64))
    if flash:
        return _sdpa_flash(query, key, value, attn_mask, is_causal, scale)
    return _sdpa_math(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['scaled_dot_product_attention']
