# torch functions and Tensor methods that cudatutor writes in Python over its native ops, the way
# ATen composes them (torch.outer is `a.reshape(n, 1) * b`, torch.hstack a cat of atleast_1d's,
# logsumexp subtracts the max first, ...). Values match PyTorch's where the composition is
# PyTorch's own; a grad_fn shows the last native op (`MulBackward0` for outer, as PyTorch).
# `_t_NAME` is the Tensor method NAME (src/torch/mod.rs EXTRA_METHODS lists them); the public
# functions are set on the torch module at the end.
import torch


def _dims(x, dim):
    if dim is None:
        return list(range(x.dim()))
    if isinstance(dim, int):
        dim = [dim]
    n = max(x.dim(), 1)
    out = []
    for d in dim:
        if d < -n or d >= n:
            raise IndexError(f'Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})')
        out.append(d % n)
    return out


def _reduce_dims(x, dims, keepdim, fn):
    if x.dim() == 0:
        return fn(x, None, keepdim)
    if len(dims) == 0:
        dims = list(range(x.dim()))
    out = x
    for d in sorted(set(dims), reverse=True):
        out = fn(out, d, True)
    if not keepdim:
        for d in sorted(set(dims), reverse=True):
            out = out.squeeze(d)
    return out


def amax(input, dim=(), keepdim=False):
    dims = _dims(input, dim) if dim != () else []
    return _reduce_dims(input, dims, keepdim,
                        lambda t, d, k: t.max() if d is None else t.max(d, keepdim=k).values)


def amin(input, dim=(), keepdim=False):
    dims = _dims(input, dim) if dim != () else []
    return _reduce_dims(input, dims, keepdim,
                        lambda t, d, k: t.min() if d is None else t.min(d, keepdim=k).values)


def flip(input, dims):
    if isinstance(dims, int):
        dims = [dims]
    out = input
    for d in _dims(input, dims):
        n = input.shape[d]
        out = out.index_select(d, torch.arange(n - 1, -1, -1, device=input.device))
    return out


def fliplr(input):
    if input.dim() < 2:
        raise RuntimeError('Input must be >= 2-d.')
    return flip(input, [1])


def flipud(input):
    if input.dim() < 1:
        raise RuntimeError('Input must be >= 1-d.')
    return flip(input, [0])


def atleast_1d(x):
    return x.reshape(1) if x.dim() == 0 else x


def atleast_2d(x):
    if x.dim() == 0:
        return x.reshape(1, 1)
    if x.dim() == 1:
        return x.unsqueeze(0)
    return x


def hstack(tensors):
    ts = [atleast_1d(t) for t in tensors]
    if len(ts) == 0:
        raise RuntimeError('hstack expects a non-empty TensorList')
    return torch.cat(ts, 0 if ts[0].dim() == 1 else 1)


def vstack(tensors):
    ts = [atleast_2d(t) for t in tensors]
    if len(ts) == 0:
        raise RuntimeError('vstack expects a non-empty TensorList')
    return torch.cat(ts, 0)


def column_stack(tensors):
    ts = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in tensors]
    return torch.cat(ts, 1)


def outer(input, vec2):
    if input.dim() != 1 or vec2.dim() != 1:
        raise RuntimeError(f'outer: Expected 1-D argument self, but got {input.dim()}-D')
    return input.reshape(input.shape[0], 1) * vec2


def dot(input, other):
    if input.dim() != 1 or other.dim() != 1:
        raise RuntimeError(f'1D tensors expected, but got {input.dim()}D and {other.dim()}D tensors')
    if input.shape[0] != other.shape[0]:
        raise RuntimeError(f'inconsistent tensor size, expected tensor [{input.shape[0]}] and src [{other.shape[0]}] to have the same number of elements, but got {input.shape[0]} and {other.shape[0]} elements respectively')
    if input.dtype != other.dtype:
        raise RuntimeError(f'dot : expected both vectors to have same dtype, but found {_dtype_name(input.dtype)} and {_dtype_name(other.dtype)}')
    return torch.matmul(input, other)


def _dtype_name(dt):
    return {torch.float32: 'Float', torch.float64: 'Double', torch.int64: 'Long', torch.int32: 'Int',
            torch.float16: 'Half', torch.bool: 'Bool', torch.uint8: 'Byte', torch.int8: 'Char',
            torch.int16: 'Short'}.get(dt, str(dt))


def inner(input, other):
    if input.dim() == 0 or other.dim() == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(f'inner() the last dimension must match on both input tensors but got shapes {list(input.shape)} and {list(other.shape)}')
    if other.dim() == 1:
        return torch.matmul(input, other)
    return torch.matmul(input, other.transpose(-2, -1) if other.dim() == 2 else other.reshape(-1, other.shape[-1]).t()).reshape(*input.shape[:-1], *other.shape[:-1])


def square(input):
    return input * input


def masked_select(input, mask):
    if mask.dtype != torch.bool:
        raise RuntimeError(f'masked_select: expected BoolTensor for mask')
    if input.shape != mask.shape:
        shape = torch.broadcast_shapes(input.shape, mask.shape)
        input = input.expand(shape)
        mask = mask.expand(shape)
    return input[mask]


def _tri(input, diagonal, lower):
    if input.dim() < 2:
        name = 'tril' if lower else 'triu'
        raise RuntimeError(f'{name}: input tensor must have at least 2 dimensions')
    r, c = input.shape[-2], input.shape[-1]
    rows = torch.arange(r, device=input.device).reshape(r, 1)
    cols = torch.arange(c, device=input.device).reshape(1, c)
    keep = (cols - rows <= diagonal) if lower else (cols - rows >= diagonal)
    return input.masked_fill(keep.logical_not(), 0)


def tril(input, diagonal=0):
    return _tri(input, diagonal, True)


def triu(input, diagonal=0):
    return _tri(input, diagonal, False)


def diag(input, diagonal=0):
    if input.dim() == 1:
        n = input.shape[0]
        m = n + abs(diagonal)
        out = torch.zeros(m, m, dtype=input.dtype, device=input.device)
        idx = torch.arange(n, device=input.device)
        if diagonal >= 0:
            out[idx, idx + diagonal] = input
        else:
            out[idx - diagonal, idx] = input
        return out
    if input.dim() != 2:
        raise RuntimeError('diag(): Supports 1D or 2D tensors. Got ' + str(input.dim()) + 'D')
    r, c = input.shape
    if diagonal >= 0:
        n = max(0, min(r, c - diagonal))
        idx = torch.arange(n, device=input.device)
        return input[idx, idx + diagonal]
    n = max(0, min(r + diagonal, c))
    idx = torch.arange(n, device=input.device)
    return input[idx - diagonal, idx]


def trace(input):
    if input.dim() != 2:
        raise RuntimeError('trace: expected a matrix, but got tensor with dim ' + str(input.dim()))
    return diag(input).sum()


def logsumexp(input, dim, keepdim=False):
    dims = _dims(input, dim)
    if input.numel() == 0:
        return input.exp().sum(dims, keepdim=keepdim).log()
    if not input.is_floating_point():
        input = input.float()
    m = amax(input, dims, True)
    m = m.masked_fill(m.abs() == float('inf'), 0)
    s = (input - m).exp().sum(dims, keepdim=keepdim).log()
    return s + (m if keepdim else _squeeze_dims(m, dims))


def _squeeze_dims(t, dims):
    for d in sorted(dims, reverse=True):
        t = t.squeeze(d)
    return t


def repeat_interleave(input, repeats=None, dim=None, output_size=None):
    if repeats is None:
        # torch.repeat_interleave(repeats): each index i repeated repeats[i] times
        counts = input.tolist()
        idx = []
        for i, c in enumerate(counts):
            idx.extend([i] * c)
        return torch.tensor(idx, dtype=torch.int64, device=input.device)
    x = input
    if dim is None:
        x = x.flatten()
        dim = 0
    dim = _dims(x, dim)[0]
    n = x.shape[dim] if x.dim() > 0 else 1
    if isinstance(repeats, torch.Tensor):
        if repeats.dim() == 0 or repeats.numel() == 1:
            counts = [int(repeats.item())] * n
        else:
            counts = repeats.tolist()
            if len(counts) != n:
                raise RuntimeError('repeats must have the same size as input along dim, but got repeats.size(0) = ' + str(len(counts)) + ' and input.size(' + str(dim) + ') = ' + str(n))
    else:
        counts = [int(repeats)] * n
    idx = []
    for i, c in enumerate(counts):
        if c < 0:
            raise RuntimeError('repeats can not be negative')
        idx.extend([i] * c)
    return x.index_select(dim, torch.tensor(idx, dtype=torch.int64, device=x.device))


def isinf(input):
    if not input.is_floating_point():
        return torch.zeros(input.shape, dtype=torch.bool, device=input.device)
    return input.isfinite().logical_or(input.isnan()).logical_not()


def isposinf(input):
    return isinf(input).logical_and(input > 0)


def isneginf(input):
    return isinf(input).logical_and(input < 0)


_FMAX = {}


def _finfo_max(dt):
    if dt == torch.float64:
        return 1.7976931348623157e+308
    if dt == torch.float16:
        return 65504.0
    return 3.4028234663852886e+38


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    if not input.is_floating_point():
        return input.clone()
    big = _finfo_max(input.dtype)
    hi = big if posinf is None else posinf
    lo = -big if neginf is None else neginf
    out = input.masked_fill(input.isnan(), nan)
    out = out.masked_fill(isposinf(input), hi)
    return out.masked_fill(isneginf(input), lo)


def clamp_min(input, min):
    return input.clamp(min=min)


def clamp_max(input, max):
    return input.clamp(max=max)


def bitwise_xor(input, other):
    return input ^ other


def bitwise_and(input, other):
    return input & other


def bitwise_or(input, other):
    return input | other


def bitwise_not(input):
    return ~input


def bincount(input, weights=None, minlength=0):
    if input.dim() != 1:
        raise RuntimeError('bincount only supports 1-d non-negative integral inputs.')
    if input.is_floating_point() or input.dtype == torch.bool:
        raise RuntimeError('bincount only supports 1-d non-negative integral inputs.')
    vals = input.tolist()
    if any(v < 0 for v in vals):
        raise RuntimeError('bincount only supports 1-d non-negative integral inputs.')
    n = max(max(vals) + 1 if vals else 0, minlength)
    if weights is None:
        counts = [0] * n
        for v in vals:
            counts[v] += 1
        return torch.tensor(counts, dtype=torch.int64, device=input.device)
    w = weights.tolist()
    sums = [0.0] * n
    for v, x in zip(vals, w):
        sums[v] += x
    dt = torch.float64 if weights.dtype != torch.float32 else torch.float32
    return torch.tensor(sums, dtype=dt, device=input.device)


def _scatter_index(index, dim, self_dim):
    # one index tensor per dimension: `index` along dim, the element's own coordinate elsewhere
    coords = []
    for d in range(self_dim):
        if d == dim:
            coords.append(index)
        else:
            n = index.shape[d]
            shape = [1] * index.dim()
            shape[d] = n
            coords.append(torch.arange(n, device=index.device).reshape(*shape).expand(index.shape))
    return tuple(coords)


def _scatter_(self, dim, index, src=None, value=None, reduce=None):
    if index.dtype != torch.int64:
        raise RuntimeError('scatter(): Expected dtype int64 for index')
    if index.dim() != self.dim():
        raise RuntimeError('Index tensor must have the same number of dimensions as self tensor')
    dim = _dims(self, dim)[0]
    coords = _scatter_index(index, dim, self.dim())
    if isinstance(src, torch.Tensor):
        sl = tuple(slice(0, n) for n in index.shape)
        v = src[sl]
    else:
        v = src if value is None else value
    self[coords] = v
    return self


def scatter(input, dim, index, src=None, value=None, reduce=None):
    return _scatter_(input.clone(), dim, index, src, value, reduce)


def xlogy(input, other):
    out = input * torch.log(other)
    return out.masked_fill(input == 0, 0.0).masked_fill(other.isnan() if isinstance(other, torch.Tensor) else input != input, float('nan'))


def addcmul(input, tensor1, tensor2, value=1):
    return input + value * tensor1 * tensor2


def addcdiv(input, tensor1, tensor2, value=1):
    return input + value * tensor1 / tensor2


def var_mean(input, dim=None, unbiased=None, keepdim=False, correction=None):
    kw = {}
    if correction is not None:
        kw['correction'] = correction
    elif unbiased is not None:
        kw['unbiased'] = unbiased
    if dim is None:
        return (input.var(**kw), input.mean())
    return (input.var(dim, keepdim=keepdim, **kw), input.mean(dim, keepdim=keepdim))


def std_mean(input, dim=None, unbiased=None, keepdim=False, correction=None):
    kw = {}
    if correction is not None:
        kw['correction'] = correction
    elif unbiased is not None:
        kw['unbiased'] = unbiased
    if dim is None:
        return (input.std(**kw), input.mean())
    return (input.std(dim, keepdim=keepdim, **kw), input.mean(dim, keepdim=keepdim))


def is_floating_point(input):
    return input.is_floating_point()


def is_nonzero(input):
    if input.numel() != 1:
        if input.numel() == 0:
            raise RuntimeError('Boolean value of Tensor with no values is ambiguous')
        raise RuntimeError('Boolean value of Tensor with more than one value is ambiguous')
    return bool(input.item())


def _linalg_norm(A, ord=None, dim=None, keepdim=False, dtype=None):
    if ord is None:
        if dim is None:
            return A.flatten().norm()
        return A.norm(dim=dim, keepdim=keepdim)
    if dim is None and A.dim() == 2:
        if ord == 'fro':
            return A.flatten().norm()
        if ord == 1:
            return A.abs().sum(0).max()
        if ord == float('inf'):
            return A.abs().sum(1).max()
        raise NotImplementedError(f'cudatutor: torch.linalg.norm with ord={ord!r} on a matrix is not supported yet')
    return _vector_norm(A, ord, dim, keepdim)


def _vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None):
    if dim is None:
        return x.flatten().norm(p=ord)
    return x.norm(p=ord, dim=dim, keepdim=keepdim)


def _copy_tree(obj):
    if isinstance(obj, torch.Tensor):
        c = obj.detach().clone()
        if obj.requires_grad:
            c.requires_grad_(True)
        return c
    if isinstance(obj, dict):
        return type(obj)((k, _copy_tree(v)) for k, v in obj.items()) if type(obj) is not dict else {k: _copy_tree(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_copy_tree(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_copy_tree(v) for v in obj)
    return obj


# torch.save / torch.load: a per-run in-memory store (cudatutor scripts never touch host files)
_SAVED = {}


def _key(f):
    if isinstance(f, str):
        return f
    if hasattr(f, '__fspath__'):
        return f.__fspath__()
    if isinstance(f, (bytes,)):
        return f.decode()
    raise AttributeError(f"'{type(f).__name__}' object has no attribute 'write'")


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    _SAVED[_key(f)] = _copy_tree(obj) if not hasattr(obj, 'state_dict') else obj
    return None


def load(f, map_location=None, pickle_module=None, weights_only=None, mmap=None, **kwargs):
    k = _key(f)
    if k not in _SAVED:
        raise FileNotFoundError(f"[Errno 2] No such file or directory: '{k}'")
    obj = _SAVED[k]
    if hasattr(obj, 'state_dict'):
        if weights_only is None or weights_only:
            raise _unpickling_error(type(obj))
        return obj
    out = _copy_tree(obj)
    if map_location is not None:
        out = _map(out, map_location)
    return out


class UnpicklingError(Exception):
    pass


def _unpickling_error(cls):
    return UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n"
        "\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\n"
        f"\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in the following error message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL __main__.{cls.__name__} was not an allowed global by default. Please use `torch.serialization.add_safe_globals([__main__.{cls.__name__}])` or the `torch.serialization.safe_globals([__main__.{cls.__name__}])` context manager to allowlist this global if you trust this class/function.\n\n"
        "Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def _map(obj, loc):
    if isinstance(obj, torch.Tensor):
        if callable(loc):
            return loc(obj, 'cpu')
        if isinstance(loc, dict):
            return obj
        return obj.to(loc)
    if isinstance(obj, dict):
        return {k: _map(v, loc) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_map(v, loc) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_map(v, loc) for v in obj)
    return obj


def _legacy(dtype, name):
    def ctor(*args, device=None):
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            return torch.tensor(args[0], dtype=dtype, device=device)
        if len(args) == 1 and isinstance(args[0], torch.Tensor):
            return args[0].to(dtype)
        return torch.empty(*args, dtype=dtype, device=device)
    ctor.__name__ = name
    return ctor


# Tensor methods
def _t_new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = tuple(size[0])
    return torch.ones(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _t_new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = tuple(size[0])
    return torch.zeros(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _t_new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = tuple(size[0])
    return torch.empty(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _t_new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    return torch.full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _t_new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    if isinstance(data, torch.Tensor):
        return data.detach().clone().to(dtype or data.dtype)
    return torch.tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _inplace(name):
    def f(self, *args, **kwargs):
        return self.copy_(getattr(self, name)(*args, **kwargs))
    f.__name__ = name + '_'
    return f


def _t_type_as(self, other):
    return self.to(other.dtype)


def _t_is_inference(self):
    return False


def _t_allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return torch.allclose(self, other, rtol, atol, equal_nan)


def _t_equal(self, other):
    return torch.equal(self, other)


_t_amax = amax
_t_amin = amin
_t_flip = flip
_t_fliplr = fliplr
_t_flipud = flipud
_t_diag = diag
_t_trace = trace
_t_tril = tril
_t_triu = triu
_t_masked_select = masked_select
_t_repeat_interleave = repeat_interleave
_t_logsumexp = logsumexp
_t_outer = outer
_t_inner = inner
_t_dot = dot
_t_square = square
_t_clamp_min = clamp_min
_t_clamp_max = clamp_max
_t_nan_to_num = nan_to_num
_t_isinf = isinf
_t_isposinf = isposinf
_t_isneginf = isneginf
_t_bitwise_xor = bitwise_xor
_t_bitwise_and = bitwise_and
_t_bitwise_or = bitwise_or
_t_bitwise_not = bitwise_not
_t_bincount = bincount
_t_scatter = scatter
_t_xlogy = xlogy
_t_addcmul = addcmul
_t_addcdiv = addcdiv
_t_var_mean = var_mean
_t_std_mean = std_mean
_t_scatter_ = _scatter_
_t_positive = lambda self: self
_t_true_divide = lambda self, other: self / other
_t_multiply = lambda self, other: self * other
_t_subtract = lambda self, other, alpha=1: self - alpha * other if alpha != 1 else self - other
_t_divide = lambda self, other, rounding_mode=None: self.div(other, rounding_mode=rounding_mode) if rounding_mode else self / other
_t_greater = lambda self, other: self > other
_t_less = lambda self, other: self < other
_t_exp_ = _inplace('exp')
_t_log_ = _inplace('log')
_t_sqrt_ = _inplace('sqrt')
_t_abs_ = _inplace('abs')
_t_neg_ = _inplace('neg')
_t_sin_ = _inplace('sin')
_t_cos_ = _inplace('cos')
_t_tanh_ = _inplace('tanh')
_t_sigmoid_ = _inplace('sigmoid')
_t_relu_ = _inplace('relu')
_t_floor_ = _inplace('floor')
_t_ceil_ = _inplace('ceil')
_t_round_ = _inplace('round')
_t_masked_fill_ = _inplace('masked_fill')

# public functions on the torch module
torch.amax = amax
torch.amin = amin
torch.flip = flip
torch.fliplr = fliplr
torch.flipud = flipud
torch.atleast_1d = atleast_1d
torch.atleast_2d = atleast_2d
torch.hstack = hstack
torch.vstack = vstack
torch.column_stack = column_stack
torch.outer = outer
torch.dot = dot
torch.inner = inner
torch.square = square
torch.masked_select = masked_select
torch.tril = tril
torch.triu = triu
torch.diag = diag
torch.trace = trace
torch.logsumexp = logsumexp
torch.repeat_interleave = repeat_interleave
torch.isinf = isinf
torch.isposinf = isposinf
torch.isneginf = isneginf
torch.nan_to_num = nan_to_num
torch.clamp_min = clamp_min
torch.clamp_max = clamp_max
torch.bitwise_xor = bitwise_xor
torch.bitwise_and = bitwise_and
torch.bitwise_or = bitwise_or
torch.bitwise_not = bitwise_not
torch.bincount = bincount
torch.scatter = scatter
torch.xlogy = xlogy
torch.addcmul = addcmul
torch.addcdiv = addcdiv
torch.var_mean = var_mean
torch.std_mean = std_mean
torch.is_floating_point = is_floating_point
torch.is_nonzero = is_nonzero
torch.save = save
torch.load = load
torch.row_stack = vstack
torch.ger = outer
torch.exp_ = _t_exp_
torch.log_ = _t_log_
torch.sqrt_ = _t_sqrt_
torch.abs_ = _t_abs_
torch.neg_ = _t_neg_
torch.sin_ = _t_sin_
torch.cos_ = _t_cos_
torch.tanh_ = _t_tanh_
torch.sigmoid_ = _t_sigmoid_
torch.relu_ = _t_relu_
torch.floor_ = _t_floor_
torch.ceil_ = _t_ceil_
torch.round_ = _t_round_
torch.FloatTensor = _legacy(torch.float32, 'FloatTensor')
torch.DoubleTensor = _legacy(torch.float64, 'DoubleTensor')
torch.LongTensor = _legacy(torch.int64, 'LongTensor')
torch.IntTensor = _legacy(torch.int32, 'IntTensor')
torch.BoolTensor = _legacy(torch.bool, 'BoolTensor')
torch.ByteTensor = _legacy(torch.uint8, 'ByteTensor')
torch.HalfTensor = _legacy(torch.float16, 'HalfTensor')


def logspace(start, end, steps, base=10.0, dtype=None, layout=None, device=None, requires_grad=False):
    # ATen's CPU logspace: start and end in the dtype, the step in double, each element
    # pow(base, ...) in double from the nearer end, then rounded to the dtype
    dt = dtype if dtype is not None else torch.get_default_dtype()
    s = torch.tensor(start, dtype=dt).item()
    e = torch.tensor(end, dtype=dt).item()
    base = float(base)
    vals = []
    if steps == 1:
        vals = [base ** s]
    elif steps > 1:
        step = (e - s) / (steps - 1)
        half = steps // 2
        for i in range(steps):
            if i < half:
                vals.append(base ** (s + step * i))
            else:
                vals.append(base ** (e - step * (steps - i - 1)))
    return torch.tensor(vals, dtype=dt, device=device, requires_grad=requires_grad)


torch.logspace = logspace
