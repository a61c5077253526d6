

# ---- torch.poisson and torch.linalg.qr (src/torch/extra_poisson_qr.py) ----


def _poisson_draw(lam, generator):
    # sample_poisson (aten/src/ATen/native/Distributions.cpp), one element: each uniform is
    # one at::uniform_real_distribution<double> draw, as torch.rand of a 0-d float64 makes
    def uniform():
        return torch.rand((), dtype=torch.float64, generator=generator).item()

    if lam >= 10:
        # transformed rejection (Hoermann, 1993)
        slam = math.sqrt(lam)
        loglam = math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = uniform() - 0.5
            v = uniform()
            us = 0.5 - abs(u)
            k = int(math.floor((2 * a / us + b) * u + lam + 0.43))
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            lgk = torch.lgamma(torch.tensor(float(k) + 1, dtype=torch.float64)).item()
            if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= -lam + k * loglam - lgk:
                return k
    if lam == 0:
        return 0
    enlam = math.exp(-lam)
    x = 0
    prod = 1.0
    while True:
        prod *= uniform()
        if prod > enlam:
            x += 1
        else:
            return x


def poisson(input, generator=None):
    if not input.is_floating_point():
        raise NotImplementedError(f'"poisson_cpu" not implemented for '
                                  f"'{_SCALARTYPE_NAMES.get(str(input.dtype), str(input.dtype))}'")
    rates = input.detach().reshape(-1).tolist()
    out = []
    for lam in rates:
        # the kernel checks each rate as it reaches it (a NaN rate fails the check too)
        if not lam >= 0:
            raise RuntimeError('invalid Poisson rate, expected rate to be non-negative')
        out.append(float(_poisson_draw(lam, generator)))
    return torch.tensor(out, dtype=input.dtype, device=input.device).reshape(input.shape)


def _qr_householder(a, mode):
    # LAPACK's unblocked geqr2 (dlarfg + dlarf per column) and org2r for one matrix, in the
    # matrix's dtype: m x n with k = min(m, n) reflectors
    m, n = a.shape
    k = min(m, n)
    a = a.clone()
    taus = []
    for i in range(k):
        alpha = a[i, i].item()
        x = a[i + 1:, i]
        xnorm = x.norm().item() if m - i > 1 else 0.0
        if m - i <= 1 or xnorm == 0.0:
            taus.append(0.0)
        else:
            beta = -math.copysign(math.hypot(alpha, xnorm), alpha)
            if a.dtype == torch.float32:
                beta = torch.tensor(beta, dtype=torch.float32).item()
            tau = (beta - alpha) / beta
            a[i + 1:, i] = x * (1.0 / (alpha - beta))
            a[i, i] = beta
            taus.append(tau)
        if i < n - 1:
            _qr_apply_reflector(a, i, i + 1, n, taus[i])
    r = a[:k if mode == 'reduced' else m, :].triu()
    if mode == 'r':
        return torch.empty(0, dtype=a.dtype, device=a.device), a[:k, :].triu()
    cols = k if mode == 'reduced' else m
    q = torch.zeros(m, cols, dtype=a.dtype, device=a.device)
    q[:, :k] = a[:, :k]
    for j in range(k, cols):
        q[:, j] = 0.0
        q[j, j] = 1.0
    for i in range(k - 1, -1, -1):
        if i < cols - 1:
            q[i, i] = 1.0
            _qr_apply_reflector(q, i, i + 1, cols, taus[i])
        if i < m - 1:
            q[i + 1:, i] = q[i + 1:, i] * (-taus[i])
        q[i, i] = 1.0 - taus[i]
        if i > 0:
            q[:i, i] = 0.0
    return q, r


def _qr_apply_reflector(a, i, c0, c1, tau):
    # dlarf('Left'): C = C - tau * v (v^T C) on rows i.., columns c0..c1, v = [1, a[i+1:, i]]
    if tau == 0.0 or c0 >= c1:
        return
    saved = a[i, i].item()
    a[i, i] = 1.0
    v = a[i:, i].clone()
    c = a[i:, c0:c1]
    w = torch.matmul(v, c)
    a[i:, c0:c1] = c - tau * torch.outer(v, w)
    a[i, i] = saved


def linalg_qr(A, mode='reduced', out=None):
    if A.dim() < 2:
        raise RuntimeError('linalg.qr: The input tensor A must have at least 2 dimensions.')
    if not A.is_floating_point():
        raise NotImplementedError('linalg.qr: Expected a floating point or complex tensor as input. Got '
                                  f"{_SCALARTYPE_NAMES.get(str(A.dtype), str(A.dtype))}")
    if mode not in ('reduced', 'r', 'complete'):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
                           "'r', or 'complete'")
    batch = list(A.shape[:-2])
    m, n = A.shape[-2], A.shape[-1]
    flat = A.detach().reshape(-1, m, n)
    qs, rs = [], []
    for b in range(flat.shape[0]):
        q, r = _qr_householder(flat[b], mode)
        qs.append(q)
        rs.append(r)
    k = min(m, n)
    qshape = [0] if mode == 'r' else [m, k if mode == 'reduced' else m]
    rshape = [k if mode != 'complete' else m, n]
    if flat.shape[0] == 0:
        q = torch.empty(batch + qshape, dtype=A.dtype, device=A.device) if mode != 'r' else \
            torch.empty(0, dtype=A.dtype, device=A.device)
        r = torch.empty(batch + rshape, dtype=A.dtype, device=A.device)
    else:
        q = torch.stack(qs).reshape(batch + qshape) if mode != 'r' else qs[0]
        r = torch.stack(rs).reshape(batch + rshape)
    if out is not None:
        out[0].resize_(q.shape).copy_(q)
        out[1].resize_(r.shape).copy_(r)
        return _rt('linalg_qr', Q=out[0], R=out[1])
    return _rt('linalg_qr', Q=q, R=r)


torch.poisson = poisson
