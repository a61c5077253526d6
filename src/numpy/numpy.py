from _numpy_core import *
import _numpy_core as _core

random = _core.random
linalg = _core.linalg
ndarray = type(_core.zeros(1))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a = asarray(a)
    b = asarray(b)
    both = absolute(a - b) <= atol + rtol * absolute(b)
    if equal_nan:
        both = logical_or(both, logical_and(isnan(a), isnan(b)))
    if both.ndim == 0:
        return both[()]
    return both


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    a1 = asarray(a1)
    a2 = asarray(a2)
    if a1.shape != a2.shape:
        return False
    return bool(all(equal(a1, a2)))


def atleast_1d(a):
    a = asarray(a)
    return a.reshape(1) if a.ndim == 0 else a


def atleast_2d(a):
    a = asarray(a)
    if a.ndim == 0:
        return a.reshape(1, 1)
    if a.ndim == 1:
        return a[None, :]
    return a


def vstack(tup):
    return concatenate([atleast_2d(a) for a in tup], axis=0)


def hstack(tup):
    arrs = [atleast_1d(a) for a in tup]
    if arrs and arrs[0].ndim == 1:
        return concatenate(arrs, axis=0)
    return concatenate(arrs, axis=1)


def column_stack(tup):
    cols = []
    for a in tup:
        a = asarray(a)
        cols.append(a.reshape(-1, 1) if a.ndim < 2 else a)
    return concatenate(cols, axis=1)


class _CClass:
    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        return column_stack(key)


class _RClass:
    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        return concatenate([atleast_1d(a) for a in key])


c_ = _CClass()
r_ = _RClass()


def outer(a, b):
    a = asarray(a).reshape(-1)
    b = asarray(b).reshape(-1)
    return a[:, None] * b[None, :]


def diag(v, k=0):
    v = asarray(v)
    if v.ndim == 1:
        n = v.shape[0] + (k if k >= 0 else -k)
        out = zeros((n, n), dtype=v.dtype)
        for i in range(v.shape[0]):
            if k >= 0:
                out[i, i + k] = v[i]
            else:
                out[i - k, i] = v[i]
        return out
    n = min(v.shape)
    return array([v[i, i] for i in range(n)], dtype=v.dtype)


def trace(a):
    return diag(a).sum()


def tile(a, reps):
    a = asarray(a)
    if isinstance(reps, int):
        reps = (reps,)
    out = a
    if len(reps) == 1:
        return concatenate([atleast_1d(a)] * reps[0], axis=-1 if a.ndim else 0)
    out = atleast_2d(a)
    out = concatenate([out] * reps[1], axis=1)
    return concatenate([out] * reps[0], axis=0)


def repeat(a, repeats, axis=None):
    a = asarray(a)
    if axis is None:
        flat = a.reshape(-1)
        return array([x for x in flat.tolist() for _ in range(repeats)], dtype=a.dtype)
    raise NotImplementedError("cudatutor's numpy: repeat with axis")


def flip(m, axis=None):
    m = asarray(m)
    if axis is None:
        idx = tuple(slice(None, None, -1) for _ in range(m.ndim))
    else:
        idx = tuple(slice(None, None, -1) if d == axis % m.ndim else slice(None) for d in range(m.ndim))
    return m[idx]


def mean_std(a):
    return mean(a), std(a)


def size(a):
    return asarray(a).size


def shape(a):
    return asarray(a).shape


def ndim(a):
    return asarray(a).ndim


def cov(m):
    raise NotImplementedError("cudatutor's numpy has no np.cov")
