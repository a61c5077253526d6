# torch functions and Tensor methods that cudatutor writes in Python over its native ops, the way
# ATen composes them (torch.outer is `a.reshape(n, 1) * b`, torch.hstack a cat of atleast_1d's,
# logsumexp subtracts the max first, ...). Values match PyTorch's where the composition is
# PyTorch's own; a grad_fn shows the last native op (`MulBackward0` for outer, as PyTorch).
# `_t_NAME` is the Tensor method NAME (a Tensor attribute the native object lacks is looked up
# here); the public
# functions are set on the torch module at the end.
import math
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


def _check_iter_dims(input):
    # ATen's TensorIterator, which every reduction goes through, stops at 64 dims
    if input.dim() > 64:
        raise RuntimeError('only tensors with up to 64 dims are supported')


def _check_reduction_sizes(input, dims, prefix, name):
    # a max-like reduction has no identity: it needs a dim to reduce, each of non-zero size
    if input.numel() == 0:
        if not dims and input.dim() > 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.")
        for d in dims:
            if input.dim() > 0 and input.shape[d] == 0:
                raise IndexError(f'{prefix}Expected reduction dim {d} to have non-zero size.')


def _extremum_over_dims(input, dim, keepdim, name, reduce_one):
    # amax/amin: reduce_one(t, d, keepdim) over each of the dims in turn (d None: every element)
    _check_iter_dims(input)
    dims = _dims(input, dim) if dim != () else []
    _check_reduction_sizes(input, dims, f'{name}(): ', name)
    return _reduce_dims(input, dims, keepdim, reduce_one)


def amax(input, dim=(), keepdim=False):
    return torch._C._node('AmaxBackward0', lambda x: _extremum_over_dims(
        x, dim, keepdim, 'amax', lambda t, d, k: t.max() if d is None else t.max(d, keepdim=k).values), input)


def amin(input, dim=(), keepdim=False):
    return torch._C._node('AminBackward0', lambda x: _extremum_over_dims(
        x, dim, keepdim, 'amin', lambda t, d, k: t.min() if d is None else t.min(d, keepdim=k).values), input)


def _flip(input, dims):
    out = input
    for d in dims:
        n = input.shape[d]
        out = out.index_select(d, torch.arange(n - 1, -1, -1, device=input.device))
    return out


def flip(input, dims):
    if isinstance(dims, int):
        dims = [dims]
    dims = _dims(input, dims)
    # PyTorch's one FlipBackward0 node: one dim is one index_select node renamed, several
    # one node over their index_selects
    if len(dims) == 1:
        return torch._C._grad_node(_flip(input, dims), 'FlipBackward0')
    return torch._C._node('FlipBackward0', lambda t: _flip(t, dims), input)


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
    # pow(input, 2): a bool input promotes to int64 with the int exponent
    if input.dtype == torch.bool:
        input = input.long()
    if input.is_floating_point():
        # pow(x, 2) (PowBackward0): ATen's pow kernel computes an exponent of 2 as x * x
        return input.pow(2)
    return input * input


def masked_select(input, mask):
    if mask.dtype != torch.bool:
        raise RuntimeError(f'masked_select: expected BoolTensor for mask')
    if input.shape != mask.shape:
        shape = torch.broadcast_shapes(input.shape, mask.shape)
        input = input.expand(shape)
        mask = mask.expand(shape)
    # masked_select's node has `self` only: the mask is not differentiable
    return torch._C._node('MaskedSelectBackward0', lambda t, m: t[m], input, mask, _edges=1)


def _tri(input, diagonal, lower):
    if input.dim() < 2:
        name = 'tril' if lower else 'triu'
        raise RuntimeError(f'{name}: input tensor must have at least 2 dimensions')
    r, c = input.shape[-2], input.shape[-1]
    rows = torch.arange(r, device=input.device).reshape(r, 1)
    cols = torch.arange(c, device=input.device).reshape(1, c)
    keep = (cols - rows <= diagonal) if lower else (cols - rows >= diagonal)
    # masked_fill's node (edge: self) is PyTorch's TrilBackward0 / TriuBackward0
    return torch._C._grad_node(input.masked_fill(keep.logical_not(), 0), 'TrilBackward0' if lower else 'TriuBackward0')


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
    return torch._C._node('TraceBackward0', _trace, input)


def _trace(input):
    d = diag(input)
    if d.numel() == 0:
        return d.sum()
    # ATen's trace_cpu adds the diagonal one element at a time in acc_type (double for float):
    # cumsum's last element is that running sum (measured: float32 and float64, 0 of 600
    # differ; a cascade sum differs on 363).
    return torch.cumsum(d, 0)[-1]


def logsumexp(input, dim, keepdim=False):
    return torch._C._node('LogsumexpBackward0', lambda t: _logsumexp(t, dim, keepdim), input)


def _logsumexp(input, dim, keepdim):
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
    return torch._C._node('NanToNumBackward0', lambda t: _nan_to_num(t, nan, posinf, neginf), input)


def _nan_to_num(input, nan, posinf, neginf):
    big = _finfo_max(input.dtype)
    hi = big if posinf is None else posinf
    lo = -big if neginf is None else neginf
    out = input.masked_fill(input.isnan(), nan)
    out = out.masked_fill(isposinf(input), hi)
    return out.masked_fill(isneginf(input), lo)


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


def _scatter_checks(name, self, dim, index, src):
    # ATen's scatter_gather_dtype_check, then scatter_shape_check (nothing to check for an
    # empty index); False when there is nothing to write
    if index.numel() != 0 and index.dtype not in (torch.int64, torch.int32):
        raise RuntimeError(f'{name}(): Expected dtype int32/int64 for index')
    if isinstance(src, torch.Tensor) and src.dtype != self.dtype:
        raise RuntimeError(f'{name}(): Expected self.dtype to be equal to src.dtype')
    if index.numel() == 0:
        return False
    if max(index.dim(), 1) != max(self.dim(), 1):
        raise RuntimeError('Index tensor must have the same number of dimensions as self tensor')
    if isinstance(src, torch.Tensor) and max(src.dim(), 1) != max(index.dim(), 1):
        raise RuntimeError('Index tensor must have the same number of dimensions as src tensor')
    for d in range(index.dim()):
        too_big = d != dim and index.shape[d] > self.shape[d]
        if isinstance(src, torch.Tensor) and index.shape[d] > src.shape[d]:
            too_big = True
        if too_big:
            msg = f'Expected index {list(index.shape)} to be smaller than self {list(self.shape)} apart from dimension {dim}'
            if isinstance(src, torch.Tensor):
                msg += f' and to be smaller size than src {list(src.shape)}'
            raise RuntimeError(msg)
    return True


def _scatter_steps(self, dim, index, src, reduce):
    # ATen's CPU scatter kernel walks the index along `dim` in order for each position of the
    # other dimensions; one vectorised step per position along `dim` keeps that order (the
    # destinations of one step never coincide), so sums and products round as PyTorch's do
    if index.dim() == 0:
        index = index.reshape(1)
    if isinstance(src, torch.Tensor) and src.dim() == 0:
        src = src.reshape(1)
    index = index.long()
    rest = [index.shape[d] for d in range(index.dim()) if d != dim]
    grids = {}
    for r, d in enumerate([d for d in range(index.dim()) if d != dim]):
        shape = [1] * len(rest)
        shape[r] = rest[r]
        grids[d] = torch.arange(rest[r], device=index.device).reshape(*shape).expand(*rest)
    if isinstance(src, torch.Tensor):
        src = src[tuple(slice(0, n) for n in index.shape)]
    size = self.shape[dim]
    walk = index.movedim(dim, -1).reshape(-1)
    bad = (walk < 0) | (walk >= size)
    if bool(bad.any()):
        raise RuntimeError(f'index {int(walk[bad][0])} is out of bounds for dimension {dim} with size {size}')
    if reduce == 'add' and not self.is_floating_point() and self.dtype != torch.bool:
        # integer sums do not depend on the order: one pass over Python ints
        coords = _scatter_index(index, dim, self.dim())
        lin = torch.zeros(index.shape, dtype=torch.int64, device=index.device)
        step = 1
        for k in range(self.dim() - 1, -1, -1):
            lin = lin + coords[k] * step
            step *= self.shape[k]
        acc = self.reshape(-1).tolist()
        vals = src.reshape(-1).tolist() if isinstance(src, torch.Tensor) else [src] * index.numel()
        for j, v in zip(lin.reshape(-1).tolist(), vals):
            acc[j] += v
        self.copy_(torch.tensor(acc, dtype=self.dtype, device=self.device).reshape(self.shape))
        return self
    for k in range(index.shape[dim]):
        coords = tuple(index.select(dim, k) if d == dim else grids[d] for d in range(index.dim()))
        v = src.select(dim, k) if isinstance(src, torch.Tensor) else src
        if reduce is None:
            self[coords] = v
        elif reduce == 'add':
            self[coords] = self[coords] + v
        else:
            self[coords] = self[coords] * v
    return self


def _scatter_(self, dim, index, src=None, value=None, reduce=None):
    if value is not None:
        src = value
    if self.dim() == 0:
        raise NotImplementedError('cudatutor: scatter_ into a 0-d tensor is not supported yet')
    dim = _dims(self, dim)[0]
    if not _scatter_checks('scatter', self, dim, index, src):
        return self
    if reduce is not None and reduce not in ('add', 'multiply'):
        raise RuntimeError('reduce argument must be either add or multiply.')
    return _scatter_steps(self, dim, index, src, reduce)


def scatter(input, dim, index, src=None, value=None, reduce=None):
    return _scatter_(input.clone(), dim, index, src, value, reduce)


def logit(input, eps=None):
    # ATen's logit kernel (clamp to [eps, 1 - eps], log(x / (1 - x))) with LogitBackward0
    return torch._C._activation('logit', input, eps)


def xlogy(input, other):
    if isinstance(input, torch.Tensor) and isinstance(other, torch.Tensor):
        return torch._C._node('XlogyBackward0', _xlogy, input, other)
    return _xlogy(input, other)


def _xlogy(input, other):
    out = input * torch.log(other)
    return out.masked_fill(input == 0, 0.0).masked_fill(other.isnan() if isinstance(other, torch.Tensor) else input != input, float('nan'))


def _var_mean_args(input, dim, unbiased, keepdim, correction):
    if isinstance(dim, bool):
        # the `var_mean(input, bool unbiased)` overload
        dim, unbiased = None, dim
    if dim is None and keepdim:
        dim = list(range(input.dim()))
    if correction is None:
        correction = 0 if unbiased is False else 1
    if dim is not None and not isinstance(dim, (list, tuple)):
        dim = [dim]
    return dim, correction, bool(keepdim)


def var_mean(input, dim=None, unbiased=None, keepdim=False, correction=None):
    # ATen's std_var_mean_out: one Welford pass gives both (the engine's _var_mean)
    dim, correction, keepdim = _var_mean_args(input, dim, unbiased, keepdim, correction)
    if not (input.requires_grad and torch.is_grad_enabled()):
        return torch._C._var_mean(input, dim, correction, keepdim, False)
    # PyTorch's one VarMeanBackward0 node for both results: each result here is such a node
    # over the same Welford pass
    part = lambda k: torch._C._node(
        'VarMeanBackward0', lambda t: torch._C._var_mean(t, dim, correction, keepdim, False)[k], input)
    return part(0), part(1)


def std_mean(input, dim=None, unbiased=None, keepdim=False, correction=None):
    dim, correction, keepdim = _var_mean_args(input, dim, unbiased, keepdim, correction)
    return torch._C._var_mean(input, dim, correction, keepdim, True)


def is_floating_point(input):
    return input.is_floating_point()


def is_complex(input):
    # the engine has no complex dtypes
    return False


_t_is_complex = is_complex


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


# torch.save / torch.load: files of the run's in-memory file system (script/modules/_fs.py,
# the one open() and os.path see; cudatutor scripts never touch host files), imported at the
# first save or load (at torch._extra's import it compiled the file system for every script)
def _key(f):
    import _fs
    if isinstance(f, str):
        return f
    if isinstance(f, _fs.BytesIO):
        # io.BytesIO: _fs.store/fetch keep the checkpoint in the buffer
        return f
    if hasattr(f, '__fspath__'):
        return f.__fspath__()
    if isinstance(f, _fs.TextIOWrapper):
        return f.name
    raise AttributeError(f"'{type(f).__name__}' object has no attribute 'write'")


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    import _fs
    _fs.store(_key(f), _copy_tree(obj) if not hasattr(obj, 'state_dict') else obj)
    return None


def load(f, map_location=None, pickle_module=None, weights_only=None, mmap=None, **kwargs):
    import _fs
    if _fs.is_host_file(_key(f)):
        # a checkpoint in a folder given with --allow-read: read as PyTorch reads it by default
        import torch._checkpoint as _checkpoint
        out = _checkpoint.load(_key(f), map_location is None)
        if map_location is not None:
            out = _map(out, map_location)
        return out
    obj = _fs.fetch(_key(f))
    if isinstance(obj, str):
        raise UnpicklingError("invalid load key, '" + (obj[:1] or '\\x00') + "'.")
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
        # an OrderedDict state_dict stays one, as unpickling gives it back
        out = obj.copy()
        for k, v in obj.items():
            out[k] = _map(v, loc)
        return out
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


def _inplace(name, grad_fn=None):
    # PyTorch's in-place op: the out-of-place result written back into self with self's new
    # autograd history (torch._C._inplace_result: the leaf and cast refusals; the node renamed
    # grad_fn where the out-of-place form is composed under another name). When self
    # requires grad the op reads a private copy of its values (torch._C._private_copy: self's
    # history on a copy), so the node it records keeps self's old values.
    def f(self, *args, **kwargs):
        src = torch._C._private_copy(self) if self.requires_grad and torch.is_grad_enabled() else self
        return torch._C._inplace_result(self, getattr(src, name)(*args, **kwargs), name + '_', grad_fn)
    f.__name__ = name + '_'
    return f


def _replaced(old, new):
    # new's values everywhere; the old values' gradient is zero (CopyBackwards, ZeroBackward0,
    # FillBackward2 give zeros_like(grad) to the tensor they overwrite)
    return torch.where(torch.ones(old.shape, dtype=torch.bool, device=old.device), new, old)


def _copy_with_history(self, src, non_blocking=False):
    # copy_ where autograd records it: the plain copy on a scratch tensor gives PyTorch's
    # refusals (shapes, a leaf) first, then one CopyBackwards node over (self, src)
    self.detach().clone().copy_(src.detach())

    def copy(old, s):
        return _replaced(old, s.to(device=old.device, dtype=old.dtype).expand(old.shape))
    return torch._C._inplace_result(self, torch._C._composite('CopyBackwards', copy, self, src), 'copy_')


def _fill_with_history(self, value, name='fill_'):
    node = 'ZeroBackward0' if name == 'zero_' else 'FillBackward2'

    def fill(old):
        return _replaced(old, torch.full(old.shape, value, dtype=old.dtype, device=old.device))
    return torch._C._inplace_result(self, torch._C._composite(node, fill, self), name)


def _setitem_kind(key, value):
    # (node, whether PyTorch writes through a view) of `t[key] = value` as
    # torch/csrc/autograd/python_variable_indexing.cpp dispatches it: the whole tensor is
    # fill_ (a number or a 0-d tensor) or copy_; a bool mask with a number masked_fill_, an
    # index tensor or list with a number index_fill_, either with a tensor index_put_; any
    # other key writes through the view it selects (CopySlices)
    tensor = isinstance(value, torch.Tensor)
    if key is Ellipsis or key == slice(None):
        if not tensor:
            return 'FillBackward2', False
        return ('FillBackward3' if value.dim() == 0 else 'CopyBackwards'), False
    keys = key if isinstance(key, tuple) else (key,)
    if any(isinstance(k, (torch.Tensor, list)) for k in keys):
        if tensor:
            return 'IndexPutBackward0', False
        if isinstance(key, torch.Tensor) and key.dtype == torch.bool:
            return 'MaskedFillBackward0', False
        return 'IndexFillBackward0', False
    return 'CopySlices', True


def _setitem_with_history(self, key, value):
    # `self[key] = value` where autograd records it: the plain assignment on a scratch copy
    # gives PyTorch's refusals first; one node (see _setitem_kind) passes the gradient to
    # self's old values outside the written elements and, for a value that requires grad,
    # the written elements' gradient (summed to the value's shape) to the value
    scratch = self.detach().clone()
    scratch[key] = value.detach() if isinstance(value, torch.Tensor) else value
    node, view = _setitem_kind(key, value)
    if self.is_leaf and self.requires_grad:
        raise RuntimeError(('a view of a leaf Variable' if view else 'a leaf Variable')
                           + ' that requires grad is being used in an in-place operation.')
    mask = torch.zeros(self.shape, dtype=torch.bool, device=self.device)
    mask[key] = True
    # a tensor value is an input of the node even when it does not require grad (its edge is
    # None); a number is not
    args = (self, value) if isinstance(value, torch.Tensor) else (self,)
    if isinstance(value, torch.Tensor) and value.requires_grad:
        # the value as PyTorch shapes it before the write (its own ViewBackward0 /
        # ExpandBackward0): leading 1-sized dims dropped (index_put_ drops them all, a view
        # only those past the slot's dims), then expanded to the slot
        slot = list(scratch[key].shape)
        v = value
        lead = 0
        while lead < v.dim() and v.shape[lead] == 1 and (node == 'IndexPutBackward0' or v.dim() - lead > len(slot)):
            lead += 1
        if lead:
            v = v.view(list(v.shape)[lead:])
        if node in ('CopySlices', 'CopyBackwards') and v.dim() > 0 and list(v.shape) != slot:
            v = v.expand(slot)
        args = (self, v)

    def copy_slices(base, *v):
        if not v:
            return torch.where(mask, scratch, base)
        pos = torch.arange(base.numel(), device=base.device).view(base.shape)[key]
        if pos.numel() == 0:
            return torch.where(mask, scratch, base)
        # contiguous first: the value may be an expanded view (elements that overlap)
        src = v[0].contiguous().to(dtype=base.dtype, device=base.device)
        while src.dim() > pos.dim() and src.shape[0] == 1:
            src = src.squeeze(0)
        flat = src.expand(pos.shape).contiguous().reshape(-1)
        slot = torch.zeros(base.numel(), dtype=torch.long, device=base.device)
        slot[pos.reshape(-1)] = torch.arange(pos.numel(), device=base.device)
        return torch.where(mask, flat[slot].view(base.shape), base)
    torch._C._inplace_result(self, torch._C._composite(node, copy_slices, *args), 'copy_')


def float_power(input, exponent):
    # ATen's float_power: both operands in double, then pow
    base = input.to(torch.float64) if isinstance(input, torch.Tensor) else float(input)
    if isinstance(exponent, torch.Tensor):
        return torch.pow(base, exponent.to(torch.float64))
    return torch.pow(base, float(exponent))


def _t_float_power_(self, exponent):
    if self.dtype != torch.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {_dtype_name(self.dtype)} but the operation's result requires dtype Double")
    return _inplace('float_power')(self, exponent)


def _t_type_as(self, other):
    return self.to(other.dtype)


def _t_is_inference(self):
    return torch._C._is_inference(self)


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
_t_nan_to_num = nan_to_num
_t_isinf = isinf
_t_isposinf = isposinf
_t_isneginf = isneginf
_t_bitwise_not = bitwise_not
_t_bincount = bincount
_t_scatter = scatter
_t_xlogy = xlogy
_t_logit = logit
_t_scatter_ = _scatter_
_t_positive = lambda self: self
_t_round_ = _inplace('round')
_t_clamp_ = _inplace('clamp')
_t_clip_ = _inplace('clip')
_t_clamp_min_ = _inplace('clamp_min')
_t_clamp_max_ = _inplace('clamp_max')
# tril/triu are a masked_fill here: the same gradient (grad with the other triangle zeroed)
_t_tril_ = _inplace('tril', 'TrilBackward0')
_t_triu_ = _inplace('triu', 'TriuBackward0')
_t_cumsum_ = _inplace('cumsum')
_t_cumprod_ = _inplace('cumprod')
# square is input * input: the same gradient as pow(input, 2)'s, 2 * (grad * input)
_t_square_ = _inplace('square', 'PowBackward0')
_t_nan_to_num_ = _inplace('nan_to_num')
_t_logit_ = _inplace('logit')
_t_xlogy_ = _inplace('xlogy')
_t_bitwise_not_ = _inplace('bitwise_not')
_t_float_power = float_power
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
torch.bitwise_not = bitwise_not
torch.bincount = bincount
torch.scatter = scatter
torch.xlogy = xlogy
torch.logit = logit
torch.var_mean = var_mean
torch.std_mean = std_mean
torch.is_floating_point = is_floating_point
torch.is_nonzero = is_nonzero
torch.save = save
torch.load = load
torch.row_stack = vstack
torch.ger = outer
torch.round_ = _t_round_
torch.clamp_ = _t_clamp_
torch.clip_ = _t_clip_
torch.clamp_min_ = _t_clamp_min_
torch.clamp_max_ = _t_clamp_max_
torch.square_ = _t_square_
torch.nan_to_num_ = _t_nan_to_num_
torch.logit_ = _t_logit_
torch.xlogy_ = _t_xlogy_
torch.float_power = float_power
torch.FloatTensor = _legacy(torch.float32, 'FloatTensor')
torch.DoubleTensor = _legacy(torch.float64, 'DoubleTensor')
torch.LongTensor = _legacy(torch.int64, 'LongTensor')
torch.IntTensor = _legacy(torch.int32, 'IntTensor')
torch.BoolTensor = _legacy(torch.bool, 'BoolTensor')
torch.ByteTensor = _legacy(torch.uint8, 'ByteTensor')
torch.HalfTensor = _legacy(torch.float16, 'HalfTensor')


# ---- shape utilities, small linear algebra, statistics (written over the native ops) ----

def _rt(name, **fields):
    return torch._C._return_types(name, list(fields.keys()), list(fields.values()))


def _one_dim(x, dim):
    return _dims(x, dim)[0]


def movedim(input, source, destination):
    n = input.dim()
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f'movedim: Invalid source or destination dims: source ({src} dims) should contain the same number of dims as destination ({dst} dims)')
    src = _dims(input, src) if n else []
    dst = _dims(input, dst) if n else []
    order = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter([i for i in range(n) if i not in src])
    for i in range(n):
        if order[i] is None:
            order[i] = next(rest)
    return input.permute(*order) if n else input


def swapaxes(input, axis0, axis1):
    return input.transpose(axis0, axis1)


def narrow(input, dim, start, length):
    if input.dim() == 0:
        raise RuntimeError('narrow() cannot be applied to a 0-dim tensor.')
    if not isinstance(length, torch.Tensor) and length < 0:
        raise RuntimeError('narrow(): length must be non-negative.')
    d = _one_dim(input, dim)
    n = input.shape[d]
    if isinstance(start, torch.Tensor):
        start = int(start.item())
    if start < 0:
        start += n
    if start < 0 or start > n or length < 0 or start + length > n:
        raise RuntimeError(f'start ({start}) + length ({length}) exceeds dimension size ({n}).')
    return input[(slice(None),) * d + (slice(start, start + length),)]


def unflatten(input, dim, sizes):
    d = _one_dim(input, dim)
    sizes = list(sizes)
    n = input.shape[d]
    if -1 in sizes:
        known = 1
        for s in sizes:
            if s != -1:
                known *= s
        sizes[sizes.index(-1)] = n // known if known else 0
    prod = 1
    for s in sizes:
        prod *= s
    if prod != n:
        raise RuntimeError(f'unflatten: Provided sizes {list(sizes)} don\'t multiply up to the size of dim {dim} ({n}) in the input tensor')
    shape = list(input.shape)
    return input.reshape(*(shape[:d] + sizes + shape[d + 1:]))


def atleast_3d(x):
    if x.dim() == 0:
        return x.reshape(1, 1, 1)
    if x.dim() == 1:
        return x.reshape(1, x.shape[0], 1)
    if x.dim() == 2:
        return x.unsqueeze(-1)
    return x


def dstack(tensors):
    if len(tensors) == 0:
        raise RuntimeError('dstack expects a non-empty TensorList')
    return torch.cat([atleast_3d(t) for t in tensors], 2)


def rot90(input, k=1, dims=(0, 1)):
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f'expected total rotation dims == 2, but got dims = {len(dims)}')
    if input.dim() < 2:
        raise RuntimeError(f'expected total dims >= 2, but got total dims = {input.dim()}')
    # TensorTransformations.cpp's checks, in its order
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == input.dim():
        raise RuntimeError(f'expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}')
    if not -input.dim() <= dims[0] < input.dim():
        raise RuntimeError(f'Rotation dim0 out of range, dim0 = {dims[0]}')
    if not -input.dim() <= dims[1] < input.dim():
        raise RuntimeError(f'Rotation dim1 out of range, dim1 = {dims[1]}')
    return torch._C._node('Rot90Backward0', lambda t: _rot90(t, k, dims), input)


def _rot90(input, k, dims):
    k = k % 4
    if k == 1:
        return flip(input, [dims[1]]).transpose(dims[0], dims[1])
    if k == 2:
        return flip(input, dims)
    if k == 3:
        return flip(input, [dims[0]]).transpose(dims[0], dims[1])
    return input.clone()


def tile(input, dims):
    dims = [dims] if isinstance(dims, int) else list(dims)
    x = input
    while x.dim() < len(dims):
        x = x.unsqueeze(0)
    dims = [1] * (x.dim() - len(dims)) + dims
    return x.repeat(*dims)


def aminmax(input, dim=None, keepdim=False):
    _check_iter_dims(input)
    if dim is not None:
        _check_reduction_sizes(input, _dims(input, dim), 'aminmax: ', 'aminmax')
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError('aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.')
        mn = torch._C._node('AminmaxBackward0', lambda t: t.min(), input)
        mx = torch._C._node('AminmaxBackward0', lambda t: t.max(), input)
        if keepdim:
            mn = mn.reshape(*([1] * input.dim()))
            mx = mx.reshape(*([1] * input.dim()))
        return _rt('aminmax', min=mn, max=mx)
    mn = torch._C._node('AminmaxBackward0', lambda t: amin(t, dim, keepdim), input)
    mx = torch._C._node('AminmaxBackward0', lambda t: amax(t, dim, keepdim), input)
    return _rt('aminmax', min=mn, max=mx)


def _cum_extreme(input, dim, name, larger):
    if input.dim() == 0:
        return _rt(name, values=input.clone(), indices=torch.zeros((), dtype=torch.int64, device=input.device))
    d = _one_dim(input, dim)
    if input.shape[d] == 0:
        return _rt(name, values=input.clone(), indices=torch.zeros(input.shape, dtype=torch.int64, device=input.device))
    # the values are PyTorch's one CummaxBackward0 / CumminBackward0 node over the input; the
    # indices come out of the same pass
    indices = []

    def values(x):
        v, i = _cum_extreme_scan(x, d, larger)
        indices.append(i)
        return v
    v = torch._C._node('CummaxBackward0' if larger else 'CumminBackward0', values, input)
    return _rt(name, values=v, indices=indices[0])


def _cum_extreme_scan(input, d, larger):
    n = input.shape[d]
    vals, idxs = [], []
    cur = None
    ci = None
    for i in range(n):
        xi = input.select(d, i)
        if cur is None:
            cur = xi
            ci = torch.zeros(xi.shape, dtype=torch.int64, device=input.device)
        else:
            # a NaN wins and stays (PyTorch propagates it); ties take the later index
            take = (xi >= cur) if larger else (xi <= cur)
            if input.is_floating_point():
                take = (take | xi.isnan()) & ~cur.isnan()
            cur = torch.where(take, xi, cur)
            ci = ci.masked_fill(take, i)
        vals.append(cur)
        idxs.append(ci)
    return torch.stack(vals, d), torch.stack(idxs, d)


def cummax(input, dim):
    return _cum_extreme(input, dim, 'cummax', True)


def cummin(input, dim):
    return _cum_extreme(input, dim, 'cummin', False)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    if n < 0:
        raise RuntimeError(f'order must be non-negative but got {n}')
    d = _one_dim(input, dim)
    x = input
    if prepend is not None:
        x = torch.cat([prepend, x], d)
    if append is not None:
        x = torch.cat([x, append], d)
    for _ in range(n):
        k = x.shape[d]
        if k == 0:
            break
        a = narrow(x, d, 1, k - 1)
        b = narrow(x, d, 0, k - 1)
        x = (a != b) if x.dtype == torch.bool else a - b
    return x


def msort(input):
    return input.sort(dim=0).values


def kthvalue(input, k, dim=-1, keepdim=False):
    d = _one_dim(input, dim) if input.dim() else 0
    n = input.shape[d] if input.dim() else 1
    if k < 1 or k > n:
        raise RuntimeError(f'kthvalue(): selected number k out of range for dimension {d}')
    if input.dim() == 0:
        return _rt('kthvalue', values=input.clone(), indices=torch.zeros((), dtype=torch.int64))
    # the position PyTorch's quick_select reports (it decides among equal values), then its value
    i = torch._C._kthvalue_positions(input, d, k).to(input.device)
    v = torch._C._node('KthvalueBackward0', lambda t: t.gather(d, i.unsqueeze(d)).squeeze(d), input)
    if keepdim:
        v, i = v.unsqueeze(d), i.unsqueeze(d)
    return _rt('kthvalue', values=v, indices=i)


def _median_dim(input, dim, keepdim=False):
    # ATen's median_with_indices_impl: the first NaN of a row if it has one, else its lower
    # middle element in sorted order (ties: the stable sort's first, where ATen's nth_element
    # is free to pick any)
    x = input if input.dim() else input.reshape(1)
    d = _one_dim(x, dim)
    n = x.shape[d]
    if n == 0:
        raise IndexError(f'median(): Expected reduction dim {d} to have non-zero size.')
    s = x.sort(dim=d, stable=True)
    v = s.values.narrow(d, (n - 1) // 2, 1)
    i = s.indices.narrow(d, (n - 1) // 2, 1)
    if x.is_floating_point():
        nan = x.isnan()
        has_nan = nan.any(d, keepdim=True)
        first_nan = nan.long().argmax(d, keepdim=True)
        v = torch.where(has_nan, x.gather(d, first_nan), v)
        i = torch.where(has_nan, first_nan, i)
    if input.dim() == 0:
        v, i = v.reshape(()), i.reshape(())
    elif not keepdim:
        v, i = v.squeeze(d), i.squeeze(d)
    return _rt('median', values=v, indices=i)


def _rows_along(input, d):
    # the input as rows of its dim d (moved last): (list of rows, the other dims' shape)
    x = movedim(input, d, -1)
    shape = list(x.shape[:-1])
    return x.reshape(-1, input.shape[d]).tolist(), shape


def mode(input, dim=-1, keepdim=False):
    if input.dim() == 0:
        return _rt('mode', values=input.clone(), indices=torch.zeros((), dtype=torch.int64))
    d = _one_dim(input, dim)
    rows, shape = _rows_along(input, d)
    vals, idxs = [], []
    for r in rows:
        counts = {}
        for v in r:
            counts[v] = counts.get(v, 0) + 1
        best = None
        for v in sorted(counts):
            if best is None or counts[v] > counts[best]:
                best = v
        vals.append(best)
        idxs.append(max(i for i, v in enumerate(r) if v == best))
    v = torch.tensor(vals, dtype=input.dtype, device=input.device).reshape(*shape)
    i = torch.tensor(idxs, dtype=torch.int64, device=input.device).reshape(*shape)
    if input.requires_grad and torch.is_grad_enabled():
        # ModeBackward0 (value_selecting_reduction_backward): the gradient goes to each mode's
        # index; gather's backward adds it there
        v = torch._C._node('ModeBackward0', lambda t: t.gather(d, i.unsqueeze(d)).squeeze(d), input)
    if keepdim:
        v, i = v.unsqueeze(d), i.unsqueeze(d)
    return _rt('mode', values=v, indices=i)


def quantile(input, q, dim=None, keepdim=False, interpolation='linear'):
    if not input.is_floating_point():
        raise RuntimeError(f'quantile() input tensor must be either float or double dtype')
    scalar_q = not isinstance(q, torch.Tensor) or q.dim() == 0
    qs = [float(q)] if not isinstance(q, torch.Tensor) else [float(v) for v in q.flatten().tolist()]
    for v in qs:
        if not 0 <= v <= 1:
            raise RuntimeError('quantile() q values must be in the range [0, 1]')
    x = input.flatten() if dim is None else (input if input.dim() else input.reshape(1))
    d = 0 if dim is None else _one_dim(input, dim)
    s = x.sort(dim=d).values
    n = x.shape[d]
    outs = []
    for v in qs:
        rank = v * (n - 1)
        lo = int(math.floor(rank))
        hi = min(lo + 1, n - 1)
        below = s.select(d, lo)
        above = s.select(d, hi)
        w = rank - lo
        if interpolation == 'lower':
            r = below
        elif interpolation == 'higher':
            r = above if w > 0 else below
        elif interpolation == 'nearest':
            r = above if (w > 0.5 or (w == 0.5 and lo % 2 == 1)) else below
        elif interpolation == 'midpoint':
            r = below + (above - below) * 0.5 if w > 0 else below
        else:
            r = torch.lerp(below, above, w)
        if keepdim:
            if dim is None:
                r = r.reshape(*([1] * input.dim()))
            elif input.dim():
                r = r.unsqueeze(d)
        outs.append(r)
    return outs[0] if scalar_q else torch.stack(outs)


def _cov_weights(fweights, aweights, n):
    # ATen's checks of cov's weights, in its order; their product (None without weights)
    w = None
    if fweights is not None:
        if fweights.dim() > 1:
            raise RuntimeError(f'cov(): expected fweights to have one or fewer dimensions but got fweights with {fweights.dim()} dimensions')
        if fweights.is_floating_point() or fweights.dtype == torch.bool:
            raise RuntimeError(f'cov(): expected fweights to have integral dtype but got fweights with {_dtype_name(fweights.dtype)} dtype')
        if fweights.numel() != n:
            raise RuntimeError(f'cov(): expected fweights to have the same numel as there are observations in the input but got {fweights.numel()} != {n}')
        if n > 0 and bool(fweights.min() < 0):
            raise RuntimeError('cov(): fweights cannot be negative')
        w = fweights
    if aweights is not None:
        if aweights.dim() > 1:
            raise RuntimeError(f'cov(): expected aweights to have one or fewer dimensions but got aweights with {aweights.dim()} dimensions')
        if not aweights.is_floating_point():
            raise RuntimeError(f'cov(): expected aweights to have floating point dtype but got aweights with {_dtype_name(aweights.dtype)} dtype')
        if aweights.numel() != n:
            raise RuntimeError(f'cov(): expected aweights to have the same numel as there are observations in the input but got {aweights.numel()} != {n}')
        if n > 0 and bool(aweights.min() < 0):
            raise RuntimeError('cov(): aweights cannot be negative')
        w = aweights if w is None else w * aweights
    return w


def cov(input, correction=1, fweights=None, aweights=None):
    if input.dim() > 2:
        raise RuntimeError(f'cov(): expected input to have two or fewer dimensions but got an input with {input.dim()} dimensions')
    x = input if input.dim() == 2 else input.reshape(1, -1)
    if not x.is_floating_point():
        x = x.to(torch.float32)
    n = x.shape[1]
    w = _cov_weights(fweights, aweights, n)
    if w is not None:
        # ATen's cov with weights: a weighted mean, a corrected weight sum as the divisor
        w_sum = w.sum()
        if not bool(w_sum != 0):
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
        avg = (x * w).sum(1) / w_sum
        if correction != 0 and aweights is not None:
            norm = w_sum - correction * ((w * aweights).sum() / w_sum)
        else:
            norm = w_sum - correction
        if bool(norm <= 0):
            norm = torch.zeros((), dtype=norm.dtype)
        xm = x - avg.unsqueeze(1)
        return (torch.mm(xm, (xm * w).t()) / norm).squeeze()
    avg = x.mean(1)
    norm = n - correction
    if norm <= 0:
        norm = 0
    xm = x - avg.unsqueeze(1)
    c = torch.mm(xm, xm.t()) / norm
    return c.squeeze()


def corrcoef(input):
    c = cov(input)
    if c.dim() == 0:
        return c / c
    dg = diag(c)
    sd = dg.sqrt()
    c = c / sd.unsqueeze(1)
    c = c / sd.unsqueeze(0)
    return c.clamp(-1, 1)


def result_type(tensor1, tensor2):
    def probe(v):
        if isinstance(v, torch.Tensor):
            return torch.zeros((1,) if v.dim() else (), dtype=v.dtype)
        return v
    a, b = probe(tensor1), probe(tensor2)
    if not isinstance(a, torch.Tensor) and not isinstance(b, torch.Tensor):
        a = torch.tensor(a)
    return (a + b).dtype if not (isinstance(a, torch.Tensor) and a.dtype == torch.bool and isinstance(b, torch.Tensor) and b.dtype == torch.bool) else torch.bool


def promote_types(type1, type2):
    if type1 == torch.bool and type2 == torch.bool:
        return torch.bool
    return (torch.zeros(1, dtype=type1) + torch.zeros(1, dtype=type2)).dtype


def scatter_add(input, dim, index, src):
    return _scatter_add_(input.clone(), dim, index, src)


def _scatter_add_(self, dim, index, src):
    if self.dim() == 0:
        # a 0-d tensor scatters as a 1-element vector
        view = self.reshape(1)
        _scatter_add_(view, dim, index, src)
        self.copy_(view.reshape(()))
        return self
    dim = _dims(self, dim)[0]
    if not _scatter_checks('scatter', self, dim, index, src):
        return self
    return _scatter_steps(self, dim, index, src, 'add')


def _index_add_(self, dim, index, source, alpha=1):
    d = _one_dim(self, dim) if self.dim() else 0
    if index.dim() > 1:
        raise IndexError('index_add_(): Index is supposed to be a vector')
    if index.dtype not in (torch.int64, torch.int32):
        raise RuntimeError('index_add_(): Expected dtype int32/int64 for index')
    if self.dtype != source.dtype:
        raise RuntimeError(f'index_add_(): self ({_dtype_name(self.dtype)}) and source ({_dtype_name(source.dtype)}) must have the same scalar type')
    if not (d == 0 or d < source.dim()):
        raise IndexError(f'index_add_(): Indexing dim {d} is out of bounds of the source tensor with dim {source.dim()}')
    count = source.shape[d] if source.dim() else 1
    if index.numel() != count:
        raise RuntimeError(f'index_add_(): Number of indices ({index.numel()}) should be equal to source.size(dim) ({count})')
    self_sizes, source_sizes = list(self.shape), list(source.shape)
    if self.dim() and source.dim():
        del self_sizes[d]
        del source_sizes[d]
    if self_sizes != source_sizes:
        raise RuntimeError(f'source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = {list(self.shape)} source.shape = {list(source.shape)}')
    if self.dim() == 0:
        # a 0-d tensor adds as a 1-element vector
        one = self.reshape(1)
        _index_add_(one, 0, index, source.reshape(1), alpha)
        self.copy_(one.reshape(()))
        return self
    n = self.shape[d]
    idx = index.reshape(-1).tolist()
    for i, j in enumerate(idx):
        if j < -n or j >= n:
            raise IndexError('index out of range in self')
        sl = (slice(None),) * d + (j,)
        part = source.select(d, i) if source.dim() else source
        if alpha != 1:
            part = part * alpha
        self[sl] = self[sl] + part
    return self


def index_add(input, dim, index, source, alpha=1):
    if not isinstance(source, torch.Tensor):
        return _index_add_(input.clone(), dim, index, source, alpha)
    # index_add's node has self and source (the index is not differentiable)
    return torch._C._node('IndexAddBackward0', lambda t, s: _index_add_(t.clone(), dim, index, s, alpha),
                               input, source, _edges=2)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    # torch.isclose takes two tensors (argument parsing), then checks its tolerances
    if not isinstance(input, torch.Tensor):
        raise TypeError(f"isclose(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if not isinstance(other, torch.Tensor):
        raise TypeError(f"isclose(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    if rtol < 0:
        raise RuntimeError(f'rtol must be greater than or equal to zero, but got {rtol}')
    if atol < 0:
        raise RuntimeError(f'atol must be greater than or equal to zero, but got {atol}')
    # ATen casts bool operands to the default dtype for the tolerance test
    a = input.to(torch.get_default_dtype()) if input.dtype == torch.bool else input
    b = other.to(torch.get_default_dtype()) if other.dtype == torch.bool else other
    close = (a - b).abs() <= atol + rtol * b.abs()
    close = close | (input == other)
    if equal_nan and input.is_floating_point():
        close = close | (input.isnan() & other.isnan())
    return close


def isin(elements, test_elements, assume_unique=False, invert=False):
    if not isinstance(test_elements, torch.Tensor):
        test_elements = torch.tensor(test_elements)
    if not isinstance(elements, torch.Tensor):
        elements = torch.tensor(elements)
    r = (elements.reshape(-1, 1) == test_elements.reshape(1, -1)).any(1).reshape(elements.shape)
    return ~r if invert else r


def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    if indexing is None:
        torch._C.warn('torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.')
        indexing = 'ij'
    ts = list(tensors)
    swap = indexing == 'xy' and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.numel() for t in ts]
    out = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        out.append(t.reshape(*view).expand(*shape))
    if swap:
        out = [o.transpose(0, 1) for o in out]
        out[0], out[1] = out[1], out[0]
    return tuple(out)


def roll(input, shifts, dims=None):
    return torch._C._node('RollBackward0', lambda t: _roll(t, shifts, dims), input)


def _roll(input, shifts, dims=None):
    if dims is None:
        return _roll(input.flatten(), shifts, 0).reshape(input.shape)
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [dims] if isinstance(dims, int) else list(dims)
    x = input
    for s, d in zip(shifts, dims):
        d = _one_dim(x, d)
        n = x.shape[d]
        if n == 0:
            continue
        s = s % n
        if s:
            x = torch.cat([narrow(x, d, n - s, s), narrow(x, d, 0, n - s)], d)
    return x


def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    eq = equation.replace(' ', '')
    if '.' in eq:
        raise NotImplementedError("cudatutor: einsum with '...' is not supported yet")
    if '->' in eq:
        lhs, out = eq.split('->')
    else:
        lhs = eq
        once = [c for c in lhs.replace(',', '') if lhs.replace(',', '').count(c) == 1]
        out = ''.join(sorted(once))
    ins = lhs.split(',')
    if len(ins) != len(operands):
        raise ValueError('einsum(): more operands were provided than specified in the equation' if len(operands) > len(ins) else 'einsum(): fewer operands were provided than specified in the equation')
    letters = []
    for s in ins:
        for c in s:
            if c not in letters:
                letters.append(c)
    full = list(out) + [c for c in letters if c not in out]
    terms = []
    for s, x in zip(ins, operands):
        if len(s) != x.dim():
            raise RuntimeError(f'einsum(): the number of subscripts in the equation ({len(s)}) does not match the number of dimensions ({x.dim()}) for operand {len(terms)} and no ellipsis was given')
        s = list(s)
        # a letter repeated in one operand: its diagonal
        k = 0
        while k < len(s):
            c = s[k]
            j = s.index(c, k + 1) if c in s[k + 1:] else -1
            if j < 0:
                k += 1
                continue
            n = x.shape[k]
            y = movedim(x, [k, j], [0, 1])
            ar = torch.arange(n, device=x.device)
            x = y[ar, ar]
            rest = [t for i, t in enumerate(s) if i != k and i != j]
            s = [c] + rest
            k = 0
        order = [s.index(c) for c in full if c in s]
        x = x.permute(*order) if x.dim() else x
        have = [c for c in full if c in s]
        shape = []
        it = 0
        for c in full:
            if c in s:
                shape.append(x.shape[it])
                it += 1
            else:
                shape.append(1)
        terms.append(x.reshape(*shape) if shape else x)
    r = terms[0]
    for t in terms[1:]:
        r = r * t
    extra = list(range(len(out), len(full)))
    if extra:
        r = r.sum(dim=extra)
    elif len(terms) == 1:
        r = r.clone()
    return r


# torch.linalg on small matrices: LU with partial pivoting (as LAPACK's getrf) in Python floats,
# rounded once to the input's dtype

def _check_square(A, fname):
    if A.dim() < 2:
        raise RuntimeError(f'linalg.{fname}: The input tensor A must have at least 2 dimensions.')
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f'linalg.{fname}: A must be batches of square matrices, but they are {A.shape[-2]} by {A.shape[-1]} matrices')
    if not A.is_floating_point():
        raise NotImplementedError(f'linalg.{fname}: Expected a floating point or complex tensor as input. Got {_dtype_name(A.dtype)}')


def _batched(A, f, out_shape_tail, dtype=None):
    # apply f (a list-of-lists matrix -> flat list of values) to each matrix of A
    lead = list(A.shape[:-2])
    count = 1
    for s in lead:
        count *= s
    if A.shape[-2] == 0 or A.shape[-1] == 0:
        # reshape(-1, 0, 0) would be ambiguous; empty matrices need no values
        mats = [[] for _ in range(count)]
    else:
        mats = A.reshape(count, A.shape[-2], A.shape[-1]).tolist()
    vals = []
    for m in mats:
        vals.extend(f(m))
    return torch.tensor(vals, dtype=dtype or A.dtype, device=A.device).reshape(*(lead + list(out_shape_tail)))


def _lu(m):
    n = len(m)
    a = [list(map(float, r)) for r in m]
    sign = 1.0
    perm = list(range(n))
    for k in range(n):
        p = max(range(k, n), key=lambda i: abs(a[i][k]))
        if a[p][k] == 0.0:
            return a, perm, 0.0, False
        if p != k:
            a[k], a[p] = a[p], a[k]
            perm[k], perm[p] = perm[p], perm[k]
            sign = -sign
        for i in range(k + 1, n):
            a[i][k] /= a[k][k]
            for j in range(k + 1, n):
                a[i][j] -= a[i][k] * a[k][j]
    return a, perm, sign, True


def _det(m):
    a, _, sign, ok = _lu(m)
    if not ok:
        return [0.0]
    d = sign
    for i in range(len(a)):
        d *= a[i][i]
    return [d]


def _solve_lu(a, perm, b):
    n = len(a)
    y = [b[perm[i]] for i in range(n)]
    for i in range(n):
        for j in range(i):
            y[i] -= a[i][j] * y[j]
    for i in range(n - 1, -1, -1):
        for j in range(i + 1, n):
            y[i] -= a[i][j] * y[j]
        y[i] /= a[i][i]
    return y


def _inv(m):
    n = len(m)
    a, perm, _, ok = _lu(m)
    if not ok:
        raise RuntimeError('linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because the input matrix is singular.')
    cols = [_solve_lu(a, perm, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [cols[j][i] for i in range(n) for j in range(n)]


def _getf2_det(a):
    # linalg.det of one n x n matrix, 5 <= n <= 16, as ATen and MKL compute it: the LU of A^T
    # (_linalg_det factors A.mH() when A is contiguous) by MKL's unblocked getf2 (pivot: the
    # first largest |a[i][k]|; the column below scaled by the pivot's reciprocal; the trailing
    # block updated by one fused multiply-add per element), then prod(diag(LU)) left to right
    # times the permutation's sign. Measured on 2.15 against linalg.lu_factor and linalg.det:
    # every LU and det bit-identical for 20 random matrices each of n = 5, 6, 7, 8, 10, 12, 16
    # in float32 and float64 (n = 24 and 32 run MKL's blocked code, which differs)
    from torch.nn import _fma32, _fma64
    fma = _fma32 if a.dtype == torch.float32 else _fma64
    n = a.shape[0]
    sign = 1.0
    for k in range(n):
        p = k + int(a[k:, k].abs().argmax())
        if p != k:
            a[[k, p]] = a[[p, k]]
            sign = -sign
        if a[k, k] == 0 or k + 1 == n:
            continue
        r = 1 / a[k, k]
        a[k + 1:, k] = a[k + 1:, k] * r
        a[k + 1:, k + 1:] = fma(-a[k + 1:, k].reshape(-1, 1), a[k, k + 1:].reshape(1, -1), a[k + 1:, k + 1:])
    d = a[0, 0]
    for i in range(1, n):
        d = d * a[i, i]
    return d * sign


def det(A):
    _check_square(A, 'det')
    n = A.shape[-1]
    if 5 <= n <= 16 and A.dtype in (torch.float32, torch.float64):
        lead = list(A.shape[:-2])
        count = 1
        for s in lead:
            count *= s
        if count == 0:
            return torch.zeros(lead, dtype=A.dtype, device=A.device)
        # a contiguous A is factored as A^T (no copy for LAPACK's column-major layout), any
        # other as A itself
        transposed = A.is_contiguous()
        with torch.no_grad():
            mats = A.detach().reshape(count, n, n)
            vals = [_getf2_det((mats[i].mT if transposed else mats[i]).clone()) for i in range(count)]
            return torch.stack(vals).reshape(lead)
    return _batched(A, _det, [])


def inv(A):
    _check_square(A, 'inv')
    Y = _batched(A, _inv, [A.shape[-1], A.shape[-1]])
    if not (A.requires_grad and torch.is_grad_enabled() and A.is_floating_point()):
        return Y
    # linalg_inv_ex's derivative (derivatives.yaml): -inverse^H @ (grad @ inverse^H), in
    # that order: the graph of Y - ((Y @ A) @ Y - its detached value) is it, and its value
    # is Y (the difference is exactly 0)
    def graph(a):
        z = (Y @ a) @ Y
        return Y - (z - z.detach())
    return torch._C._node('LinalgInvExBackward0', graph, A)


def _solve_one(A, B):
    a, perm, _, ok = _lu(A.tolist())
    if not ok:
        raise RuntimeError('torch.linalg.solve: The solver failed because the input matrix is singular.')
    cols = B.tolist()
    k = len(cols[0])
    sol = [_solve_lu(a, perm, [cols[i][j] for i in range(len(cols))]) for j in range(k)]
    return torch.tensor([[sol[j][i] for j in range(k)] for i in range(len(cols))], dtype=A.dtype, device=A.device)


def solve(A, B, left=True):
    _check_square(A, 'solve')
    # linalg_solve_is_vector_rhs: B is a (batch of) vector(s) when it is 1-D or has A's
    # batch shape and one dim fewer
    vec = B.dim() == 1 or (B.dim() == A.dim() - 1 and list(B.shape) == list(A.shape[:-1]))
    Bm = B.unsqueeze(-1) if vec else B
    batch = list(torch.broadcast_shapes(A.shape[:-2], Bm.shape[:-2]))
    n, k = A.shape[-1], Bm.shape[-1]
    count = 1
    for d in batch:
        count *= d
    if count == 0 or n == 0 or k == 0:
        out = torch.zeros(batch + [n, k], dtype=A.dtype, device=A.device)
    else:
        Af = A.expand(batch + [n, n]).reshape(count, n, n)
        Bf = Bm.expand(batch + [n, k]).reshape(count, n, k)
        out = torch.stack([_solve_one(Af[i], Bf[i]) for i in range(count)]).reshape(batch + [n, k])
    return out.squeeze(-1) if vec else out


def matrix_rank(A, tol=None, hermitian=False, atol=None, rtol=None):
    if A.dim() > 2:
        # one rank per matrix of the batch
        lead = list(A.shape[:-2])
        rows, cols = A.shape[-2], A.shape[-1]
        count = 1
        for n in lead:
            count *= n
        if rows == 0 or cols == 0:
            ranks = [0] * count
        else:
            flat = A.reshape(count, rows, cols)
            ranks = [int(matrix_rank(flat[i], tol, hermitian, atol, rtol)) for i in range(count)]
        return torch.tensor(ranks, dtype=torch.int64, device=A.device).reshape(lead)
    m = [list(map(float, r)) for r in A.tolist()]
    rows, cols = len(m), len(m[0]) if m else 0
    big = max([abs(v) for r in m for v in r] + [0.0])
    eps = 1.1920928955078125e-07 if A.dtype == torch.float32 else 2.220446049250313e-16
    thr = big * max(rows, cols) * eps
    rank = 0
    for c in range(cols):
        p = max(range(rank, rows), key=lambda i: abs(m[i][c]), default=None)
        if p is None or abs(m[p][c]) <= thr:
            continue
        m[rank], m[p] = m[p], m[rank]
        for i in range(rank + 1, rows):
            f = m[i][c] / m[rank][c]
            for j in range(c, cols):
                m[i][j] -= f * m[rank][j]
        rank += 1
    return torch.tensor(rank)


def matrix_power(A, n):
    _check_square(A, 'matrix_power') if A.is_floating_point() else None
    if n == 0:
        k = A.shape[-1]
        return torch.eye(k, dtype=A.dtype, device=A.device).expand(A.shape).clone()
    if n < 0:
        A = inv(A)
        n = -n
    # binary exponentiation, as ATen's linalg_matrix_power
    result = None
    z = A
    while n > 0:
        if n % 2 == 1:
            result = z if result is None else torch.matmul(result, z)
        n //= 2
        if n > 0:
            z = torch.matmul(z, z)
    return result if result is not A else A.clone()


def _cross_term(a1, b2, a2, b1):
    # ATen's CPU cross kernel writes a1*b2 - a2*b1, which the compiler contracts into
    # fma(a1, b2, -(a2*b1)) (measured: 300 of 300 random float32 vectors match that, 121
    # the plain form); for float32 a double computes the fma (a1*b2 is exact there)
    if a1.dtype == torch.float32:
        return (a1.double() * b2.double() - (a2 * b1).double()).float()
    if a1.dtype == torch.float64:
        # addcmul of double is that fma (measured: 6000 of 6000 float64 terms match, 1447
        # differ in the plain form)
        return torch.addcmul(-(a2 * b1), a1, b2)
    return a1 * b2 - a2 * b1


def linalg_cross(input, other, dim=-1):
    # linalg_cross's meta function, in its order
    if input.dim() != other.dim():
        raise RuntimeError('linalg.cross: inputs must have the same number of dimensions.')
    d = _one_dim(input, dim)
    if input.shape[d] != 3 or other.shape[d] != 3:
        raise RuntimeError(f'linalg.cross: inputs dimension {dim} must have length 3. '
                           f'Got {input.shape[d]} and {other.shape[d]}')
    a = [input.select(d, i) for i in range(3)]
    b = [other.select(d, i) for i in range(3)]
    return torch.stack([_cross_term(a[1], b[2], a[2], b[1]), _cross_term(a[2], b[0], a[0], b[2]),
                        _cross_term(a[0], b[1], a[1], b[0])], d)


def cross(input, other, dim=None):
    if dim is None:
        # torch.cross's deprecated default: the first dimension of size 3
        sizes = list(input.shape)
        if 3 not in sizes:
            raise RuntimeError('no dimension of size 3 in input')
        dim = sizes.index(3)
    return linalg_cross(input, other, dim)


_round_native = torch._round_native


def round(input, decimals=0):
    if input.requires_grad and torch.is_grad_enabled() and input.is_floating_point():
        # round's derivative is zero (derivatives.yaml: zeros_like(grad)); its node, round
        # or round.decimals, links the input: where(False, input, value) sends +0 back
        value = _round(input.detach(), decimals)
        name = 'RoundBackward0' if decimals == 0 else 'RoundBackward1'
        return torch._C._node(name, lambda t: torch.where(
            torch.zeros(t.shape, dtype=torch.bool, device=t.device), t, value), input)
    return _round(input, decimals)


def _round(input, decimals):
    if decimals == 0:
        return _round_native(input)
    if decimals > 0:
        p = float(10 ** decimals)
        return _round_native(input * p) / p
    p = float(10 ** (-decimals))
    return _round_native(input / p) * p


_t_round = round


def broadcast_tensors(*tensors):
    shape = torch.broadcast_shapes(*[t.shape for t in tensors])
    return tuple(t.expand(shape) for t in tensors)


_normal_native = torch._normal_native


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None,
           device=None, pin_memory=False, requires_grad=False):
    """torch.normal with tensor mean and/or std, as ATen's normal_out_impl draws them."""
    mt = isinstance(mean, torch.Tensor)
    st = isinstance(std, torch.Tensor)
    if not mt and not st:
        kw = {}
        if generator is not None:
            kw['generator'] = generator
        if dtype is not None:
            kw['dtype'] = dtype
        if device is not None:
            kw['device'] = device
        if size is None:
            return _normal_native(mean, std, **kw)
        return _normal_native(mean, std, size, requires_grad=requires_grad, **kw)
    gen = {} if generator is None else {'generator': generator}
    if st and bool((std < 0).any()):
        raise RuntimeError('normal expects all elements of std >= 0.0')
    if not st and std < 0:
        raise RuntimeError(f'normal expects std >= 0.0, but found std {std}')
    if mt and st:
        shape = torch.broadcast_shapes(mean.shape, std.shape)
        z = torch.empty(shape, dtype=mean.dtype, device=mean.device).normal_(0, 1, **gen)
        return z * std + mean
    if mt:
        z = torch.empty(mean.shape, dtype=mean.dtype, device=mean.device).normal_(0, std, **gen)
        return z + mean
    z = torch.empty(std.shape, dtype=std.dtype, device=std.device).normal_(0, 1, **gen)
    return z * std + mean


torch.broadcast_tensors = broadcast_tensors
torch.normal = normal


class _UntypedStorage:
    def __init__(self, ptr, nbytes):
        self._ptr = ptr
        self._nbytes = nbytes

    def nbytes(self):
        return self._nbytes

    def size(self):
        return self._nbytes

    def __len__(self):
        return self._nbytes

    def data_ptr(self):
        return self._ptr


def _t_data_ptr(self):
    ptr, _ = torch._C._storage_info(self)
    return ptr + self.storage_offset() * self.element_size()


def _t_untyped_storage(self):
    ptr, nbytes = torch._C._storage_info(self)
    return _UntypedStorage(ptr, nbytes)


_t_movedim = movedim
_t_moveaxis = movedim
_t_swapaxes = swapaxes
_t_swapdims = swapaxes
_t_narrow = narrow
_t_unflatten = unflatten
_t_tile = tile
_t_aminmax = aminmax
_t_cummax = cummax
_t_cummin = cummin
_t_diff = diff
_t_msort = msort
_t_kthvalue = kthvalue
_t_mode = mode
_t_quantile = quantile
_t_scatter_add = scatter_add
_t_scatter_add_ = _scatter_add_
_t_index_add = index_add
_t_index_add_ = _index_add_
_t_isclose = isclose
_t_roll = roll
_t_rot90 = rot90
_t_det = det
_t_inverse = inv
_t_cross = cross
_t_cov = cov
_t_corrcoef = corrcoef
_t_matrix_power = matrix_power

torch.movedim = movedim
torch.swapaxes = swapaxes
torch.narrow = narrow
torch.unflatten = unflatten
torch.atleast_3d = atleast_3d
torch.dstack = dstack
torch.rot90 = rot90
torch.tile = tile
torch.aminmax = aminmax
torch.cummax = cummax
torch.cummin = cummin
torch.diff = diff
torch.msort = msort
torch.kthvalue = kthvalue
torch.mode = mode
torch.quantile = quantile
torch.cov = cov
torch.corrcoef = corrcoef
torch.result_type = result_type
torch.promote_types = promote_types
torch.scatter_add = scatter_add
torch.index_add = index_add
torch.isclose = isclose
torch.isin = isin
torch.meshgrid = meshgrid
torch.roll = roll
torch.einsum = einsum
torch.det = det
torch.round = round
torch.cross = cross
torch.matrix_power = matrix_power
torch.moveaxis = movedim
torch.swapdims = swapaxes
torch.inverse = inv


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


def unbind(input, dim=0):
    if input.dim() == 0:
        raise IndexError('Dimension specified as 0 but tensor has no dimensions')
    d = _one_dim(input, dim)
    # each select node is PyTorch's UnbindBackward0 (edge: the input)
    return tuple(torch._C._grad_node(input.select(d, i), 'UnbindBackward0') for i in range(input.shape[d]))


def zero_(input):
    return input.zero_()


def ravel(input):
    # a contiguous 1-D copy (a view when the input is already contiguous)
    return input.reshape(-1)


def clone(input, *, memory_format=None):
    return input.clone()


torch.clone = clone
_t_mv = lambda self, vec: torch.mv(self, vec)
_t_bmm = lambda self, mat2: torch.bmm(self, mat2)
torch.unbind = unbind
torch.zero_ = zero_
torch.ravel = ravel
_t_ravel = ravel
torch.logspace = logspace
torch.is_complex = is_complex


# torch.finfo / torch.iinfo: the limits of a dtype as PyTorch's C++ structs report them (the
# repr formats each number with %g, as torch/csrc/TypeInfo.cpp does)
_FINFO = {
    # name: (bits, eps, max, smallest_normal, resolution)
    'float32': (32, 1.1920928955078125e-07, 3.4028234663852886e+38, 1.1754943508222875e-38, 1e-06),
    'float64': (64, 2.220446049250313e-16, 1.7976931348623157e+308, 2.2250738585072014e-308, 1e-15),
    'float16': (16, 0.0009765625, 65504.0, 6.103515625e-05, 0.001),
    'bfloat16': (16, 0.0078125, 3.3895313892515355e+38, 1.1754943508222875e-38, 0.01),
}
_COMPLEX_PART = {'complex64': 'float32', 'complex128': 'float64', 'complex32': 'float16'}
_IINFO = {
    'uint8': (8, 0, 255), 'int8': (8, -128, 127), 'int16': (16, -32768, 32767),
    'int32': (32, -2147483648, 2147483647), 'int64': (64, -9223372036854775808, 9223372036854775807),
    'uint16': (16, 0, 65535), 'uint32': (32, 0, 4294967295), 'uint64': (64, 0, 18446744073709551615),
}


dtype = type(torch.float32)
torch.dtype = dtype


def _dtype_arg(fn, t):
    if not isinstance(t, dtype):
        raise TypeError(f"{fn}(): argument 'type' (position 1) must be torch.dtype, not {type(t).__name__}")
    return str(t)[len('torch.'):]


# finfo's and iinfo's equality and hash: two of a kind describing the same dtype are equal
def _same_type_and_dtype(self, other):
    return isinstance(other, type(self)) and self.dtype == other.dtype


def _hash_of_type_and_dtype(self):
    return hash((type(self).__name__, self.dtype))


class finfo:
    # in the body, not assigned after the class: an assignment at import defined the class (and
    # its helpers) at torch._extra's import, for every script
    __module__ = 'torch'

    def __init__(self, type=None):
        name = _dtype_arg('finfo', torch.get_default_dtype() if type is None else type)
        name = _COMPLEX_PART.get(name, name)
        if name not in _FINFO:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        bits, eps, big, tiny, resolution = _FINFO[name]
        self.bits = bits
        self.eps = eps
        self.max = big
        self.min = -big
        self.tiny = tiny
        self.smallest_normal = tiny
        self.resolution = resolution
        self.dtype = name

    __eq__ = _same_type_and_dtype
    __hash__ = _hash_of_type_and_dtype

    def __repr__(self):
        return (f'finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, '
                f'smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})')


class iinfo:
    __module__ = 'torch'

    def __init__(self, type):
        name = _dtype_arg('iinfo', type)
        if name == 'bool':
            raise TypeError('torch.bool is not supported by torch.iinfo')
        if name not in _IINFO:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        self.bits, self.min, self.max = _IINFO[name]
        self.dtype = name

    __eq__ = _same_type_and_dtype
    __hash__ = _hash_of_type_and_dtype

    def __repr__(self):
        return f'iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})'


torch.finfo = finfo
torch.iinfo = iinfo


# ---- out= for functions that lack it natively: the result is checked against out's dtype as
# the op's kernel words it, written into out (resized when its shape differs, as
# at::native::resize_output does: the tensor takes the result's shape) and out is returned ----

_TYPEMETA_NAMES = {'torch.float32': 'float', 'torch.float64': 'double', 'torch.int64': 'long int',
                   'torch.int32': 'int', 'torch.int16': 'short int', 'torch.int8': 'signed char',
                   'torch.uint8': 'unsigned char', 'torch.bool': 'bool', 'torch.float16': 'c10::Half',
                   'torch.bfloat16': 'c10::BFloat16'}
_SCALARTYPE_NAMES = {'torch.float32': 'Float', 'torch.float64': 'Double', 'torch.int64': 'Long',
                     'torch.int32': 'Int', 'torch.int16': 'Short', 'torch.int8': 'Char', 'torch.uint8': 'Byte',
                     'torch.bool': 'Bool', 'torch.float16': 'Half', 'torch.bfloat16': 'BFloat16'}


def _out_same_dtype(r, o, src):
    # gather_out / aminmax_out: "Expected out tensor to have dtype float, but got double instead"
    if o.dtype != r.dtype:
        raise RuntimeError(f'Expected out tensor to have dtype {_TYPEMETA_NAMES.get(str(r.dtype), str(r.dtype))}, '
                           f'but got {_TYPEMETA_NAMES.get(str(o.dtype), str(o.dtype))} instead')


def _out_input_dtype(r, o, src):
    # amax_out / amin_out compare out with the input's dtype
    if o.dtype != src.dtype:
        raise RuntimeError(f"Expected the dtype for input and out to match, but got "
                           f"{_SCALARTYPE_NAMES.get(str(src.dtype), str(src.dtype))} for input's dtype and "
                           f"{_SCALARTYPE_NAMES.get(str(o.dtype), str(o.dtype))} for out's dtype.")


def _out_long(r, o, src):
    if o.dtype != torch.int64:
        raise RuntimeError(f'multinomial expects Long tensor out, got: {_SCALARTYPE_NAMES.get(str(o.dtype), str(o.dtype))}')


def _out_castable(r, o, src):
    # structured kernels: the result type must be castable to out's dtype
    kinds = {torch.bool: 0}
    rk = 2 if r.is_floating_point() else kinds.get(r.dtype, 1)
    ok = 2 if o.is_floating_point() else kinds.get(o.dtype, 1)
    if rk > ok:
        raise RuntimeError(f"result type {_SCALARTYPE_NAMES.get(str(r.dtype), str(r.dtype))} can't be cast to the "
                           f"desired output type {_SCALARTYPE_NAMES.get(str(o.dtype), str(o.dtype))}")


def _store_out(o, r):
    if list(o.shape) == list(r.shape):
        o.copy_(r)
    else:
        o.data = r.to(o.dtype).clone()


def _with_out(fn_of, check_of, out_name=None, fields=(), check_first=False):
    # fn_of and check_of return the function and its out= check: lambdas that name this
    # module's definitions, read at the first call, so that setting these ten names at import
    # compiles none of them (it compiled ten definitions, ~5 KB, when torch._extra loaded).
    # check_first: the op checks out's dtype before its inputs (multinomial_out), so the
    # check runs before the op, without its result
    resolved = None

    def call(*args, out=None, **kwargs):
        nonlocal resolved
        if resolved is None:
            resolved = (fn_of(), check_of())
        fn, check = resolved
        if out is None:
            return fn(*args, **kwargs)
        src = args[0] if args and isinstance(args[0], torch.Tensor) else kwargs.get('input')
        if check_first:
            check(None, out, src)
        r = fn(*args, **kwargs)
        if fields:
            outs = list(out)
            for x, o in zip(r, outs):
                check(x, o, src)
            for x, o in zip(r, outs):
                _store_out(o, x)
            return _rt(out_name, **dict(zip(fields, outs)))
        if not check_first:
            check(r, out, src)
        _store_out(out, r)
        return out
    return call


torch.gather = _with_out(lambda: torch._gather_native, lambda: _out_same_dtype)
torch.aminmax = _with_out(lambda: aminmax, lambda: _out_same_dtype, 'aminmax_out', ('min', 'max'))
torch.amax = _with_out(lambda: amax, lambda: _out_input_dtype)
torch.amin = _with_out(lambda: amin, lambda: _out_input_dtype)
torch.kthvalue = _with_out(lambda: kthvalue, lambda: _out_castable, 'kthvalue_out', ('values', 'indices'))
torch.cat = _with_out(lambda: torch._cat_native, lambda: _out_castable)
torch.masked_select = _with_out(lambda: masked_select, lambda: _out_castable)
torch.index_select = _with_out(lambda: torch._index_select_native, lambda: _out_castable)
torch.bernoulli = _with_out(lambda: torch._bernoulli_native, lambda: _out_castable)
torch.multinomial = _with_out(lambda: torch._multinomial_native, lambda: _out_long, check_first=True)
# ---- torch.addmm's beta and alpha in bfloat16/float16 (the native binding does float32/float64) ----

_native_addmm = torch._addmm_native


def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    # the native binding does beta/alpha as MKL's float32/float64 GEMM does; a reduced-precision
    # GEMM accumulates in float32 and rounds once (_addmm_scaled)
    if (out is None and (beta != 1 or alpha != 1) and isinstance(mat1, torch.Tensor)
            and mat1.dtype in (torch.bfloat16, torch.float16)):
        return torch._C._composite('AddmmBackward0', _addmm_scaled, input, mat1, mat2, beta, alpha)
    if out is None:
        return _native_addmm(input, mat1, mat2, beta=beta, alpha=alpha)
    return _native_addmm(input, mat1, mat2, beta=beta, alpha=alpha, out=out)


def _addmm_scaled(input, mat1, mat2, beta, alpha):
    # mat1 @ mat2 with addmm's own checks and messages (a zero input adds nothing)
    if mat1.dim() == 2 and mat2.dim() == 2:
        zero = torch.zeros(mat1.shape[0], mat2.shape[1], dtype=mat1.dtype, device=mat1.device)
    else:
        zero = input
    prod = _native_addmm(zero, mat1, mat2)
    c = input.expand(prod.shape)
    dt = prod.dtype
    if dt in (torch.bfloat16, torch.float16):
        # the reduced-precision GEMM accumulates in float32: alpha * (a @ b) + beta * c, rounded
        # once to the dtype
        prod32 = _native_addmm(zero.float(), mat1.float(), mat2.float())
        if beta == 0:
            return (prod32 * alpha).to(dt)
        return (prod32 * alpha + c.float() * beta).to(dt)
    if beta == 0:
        # BLAS ignores C when beta is 0 (a nan in input does not reach the result)
        return prod * alpha
    if dt == torch.float32:
        return torch.nn._fma32(c, torch.tensor(beta, dtype=dt), prod * alpha)
    if dt == torch.float64:
        return torch.nn._fma64(c, torch.tensor(beta, dtype=dt), prod * alpha)
    return c * beta + prod * alpha


torch.addmm = addmm
