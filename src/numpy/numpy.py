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


class NpzFile:
    """What np.load returns for an .npz archive: its arrays by name."""

    def __init__(self, arrays):
        self._arrays = arrays
        self.files = list(arrays)

    def __getitem__(self, key):
        if key not in self._arrays:
            raise KeyError(f"{key} is not a file in the archive")
        return self._arrays[key]

    def __contains__(self, key):
        return key in self._arrays

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def keys(self):
        return self._arrays.keys()

    def values(self):
        return self._arrays.values()

    def items(self):
        return self._arrays.items()

    def get(self, key, default=None):
        return self._arrays.get(key, default)

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return f"NpzFile with keys: {', '.join(self.files)}"


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding='ASCII'):
    """np.load of a .npy or .npz file under a folder the run may read (--allow-read)."""
    if hasattr(file, '__fspath__'):
        file = file.__fspath__()
    r = _core._load(file)
    if isinstance(r, dict):
        return NpzFile(r)
    return r


def loadtxt(fname, dtype=float, comments='#', delimiter=None, skiprows=0, usecols=None,
            unpack=False, ndmin=0, max_rows=None):
    """np.loadtxt of a text or CSV file (open() reads it: the run's files, or --allow-read)."""
    if isinstance(fname, str) or hasattr(fname, '__fspath__'):
        with open(fname) as f:
            lines = f.read().splitlines()
    else:
        lines = [str(l).rstrip('\n') for l in fname]
    rows = []
    for line in lines[skiprows:]:
        if comments is not None and comments in line:
            line = line[:line.index(comments)]
        if not line.strip():
            continue
        parts = line.split(delimiter) if delimiter is not None else line.split()
        if usecols is not None:
            cols = [usecols] if isinstance(usecols, int) else list(usecols)
            parts = [parts[c] for c in cols]
        rows.append([float(p) for p in parts])
        if max_rows is not None and len(rows) >= max_rows:
            break
    out = array(rows, dtype=dtype)
    if out.ndim == 2 and out.shape[1] == 1 and ndmin < 2:
        out = out.reshape(-1)
    if out.ndim == 2 and out.shape[0] == 1 and ndmin < 2:
        out = out.reshape(-1)
    if unpack:
        return out.T
    return out

