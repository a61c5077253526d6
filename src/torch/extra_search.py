
# ---- extra_search.py: searchsorted/bucketize, histc, argwhere, can_cast, cdist, tensor_split ----
# (concatenated after extra.py into torch._extra)

# searchsorted: the first position (side='left') or the position after the last element
# (side='right') where each value would keep the innermost dim of the sorted sequence sorted;
# a NaN sorts after every number, as in ATen's cus_lower_bound/cus_upper_bound.
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None):
    if side is not None:
        if side not in ('left', 'right'):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == 'left':
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True")
        right = side == 'right'
    seq = sorted_sequence
    if sorter is not None:
        seq = seq.gather(-1, sorter)
    scalar = not isinstance(input, torch.Tensor)
    values = torch.tensor(input, dtype=seq.dtype) if scalar else input
    if seq.dim() > 1 and list(seq.shape[:-1]) != list(values.shape[:-1]):
        raise RuntimeError(
            'torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of '
            f'boundaries tensor and input value tensor must match, but we got boundaries tensor {list(seq.shape)} '
            f'and input value tensor {list(values.shape)}')
    v = values.unsqueeze(-1)
    s = seq.unsqueeze(-2) if seq.dim() > 1 else seq
    if seq.is_floating_point() or values.is_floating_point():
        # a NaN value lands after every number; a NaN boundary is larger than every number
        before = (s <= v) if right else (s < v)
        before = before | (v.isnan() & ~s.isnan())
    else:
        before = (s <= v) if right else (s < v)
    r = before.sum(-1)
    r = r.to(torch.int32) if out_int32 else r
    return r


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    if boundaries.dim() != 1:
        raise RuntimeError(f'boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})')
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def histc(input, bins=100, min=0, max=0, *, out=None):
    if not input.is_floating_point():
        name = _SCALARTYPE_NAMES.get(str(input.dtype), str(input.dtype))
        raise NotImplementedError(f'"histogram_cpu" not implemented for \'{name}\'')
    if bins <= 0:
        raise RuntimeError(f'torch.histc(): bins must be > 0, but got {bins} for dimension 0')
    lo, hi = float(min), float(max)
    if lo == hi and input.numel() > 0:
        lo, hi = input.min().item(), input.max().item()
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise RuntimeError(f'torch.histc(): max must be larger than min, but got min {min} max {max}')
    x = input.reshape(-1)
    x = x[(x >= lo) & (x <= hi)]
    # HistogramKernel.cpp: pos = (elt - leftmost) * bins / (rightmost - leftmost), in the
    # input's dtype; an element equal to the right edge goes into the last bin
    pos = ((x - lo) * bins / (hi - lo)).to(torch.int64)
    pos = pos.clamp(max=bins - 1)
    return torch.bincount(pos, minlength=bins)[:bins].to(input.dtype)


def argwhere(input):
    return torch.nonzero(input)


def can_cast(from_, to):
    # c10::canCast: never float to integral, never anything but bool to bool
    if from_.is_floating_point and not to.is_floating_point:
        return False
    if from_ != torch.bool and to == torch.bool:
        return False
    return True


_t_argwhere = argwhere
_t_histc = histc
torch.searchsorted = searchsorted
torch.bucketize = bucketize
torch.histc = histc
torch.argwhere = argwhere
torch.can_cast = can_cast


def cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'):
    if x1.dim() < 2 or x2.dim() < 2:
        raise RuntimeError(f'cdist only supports at least 2D tensors, X1 got: {x1.dim()}D')
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f'X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}')
    if p < 0:
        raise RuntimeError(f'cdist only supports non-negative p values')
    r1, r2 = x1.shape[-2], x2.shape[-2]
    mm = p == 2 and (compute_mode == 'use_mm_for_euclid_dist'
                     or (compute_mode == 'use_mm_for_euclid_dist_if_necessary' and (r1 > 25 or r2 > 25)))
    if mm:
        # ATen's _euclidean_dist: one matmul of padded operands, clamped at 0, then sqrt
        x1_norm = x1.pow(2).sum(-1, keepdim=True)
        x2_norm = x2.pow(2).sum(-1, keepdim=True)
        a = torch.cat([x1.mul(-2), x1_norm, torch.ones_like(x1_norm)], -1)
        b = torch.cat([x2, torch.ones_like(x2_norm), x2_norm], -1)
        return a.matmul(b.transpose(-2, -1)).clamp_min(0).sqrt()
    diff = (x1.unsqueeze(-2) - x2.unsqueeze(-3)).abs()
    if p == 0:
        return (diff != 0).to(x1.dtype).sum(-1)
    if p == 1:
        return diff.sum(-1)
    if p == 2:
        return (diff * diff).sum(-1).sqrt()
    if p == float('inf'):
        return diff.amax(-1)
    return diff.pow(p).sum(-1).pow(1.0 / p)


torch.cdist = cdist


def tensor_split(input, indices_or_sections, dim=0):
    # sections: the first n % sections pieces are one longer; indices: cut before each index
    d = dim % max(input.dim(), 1)
    n = input.shape[d]
    if isinstance(indices_or_sections, torch.Tensor):
        if indices_or_sections.dim() == 0:
            indices_or_sections = indices_or_sections.item()
        else:
            indices_or_sections = indices_or_sections.tolist()
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise RuntimeError(f'number of sections must be larger than 0, got {sections}')
        size, extra = divmod(n, sections)
        cuts, at = [], 0
        for i in range(sections - 1):
            at += size + (1 if i < extra else 0)
            cuts.append(at)
    else:
        cuts = list(indices_or_sections)
    out, start = [], 0
    for c in cuts + [n]:
        c = max(min(c if c >= 0 else c + n, n), 0)
        out.append(input.narrow(d, min(start, n), max(c - start, 0)))
        start = c
    return tuple(out)


_t_tensor_split = tensor_split
torch.tensor_split = tensor_split
