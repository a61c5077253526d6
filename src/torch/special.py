# torch.special for cudatutor: the aliases of ops the engine has (computed by the same kernels
# as torch.sigmoid, torch.erf, ...), and the few special functions written as PyTorch's own
# compositions. What is not here raises AttributeError as a missing name.
import math
import torch
import torch._C as _C
import torch.nn.functional as _F


def expit(input, *, out=None):
    return torch.sigmoid(input)


def logit(input, eps=None, *, out=None):
    return torch.logit(input, eps)


def erf(input, *, out=None):
    return torch.erf(input)


def erfc(input, *, out=None):
    return torch.erfc(input)


def erfinv(input, *, out=None):
    return torch.erfinv(input)


def log1p(input, *, out=None):
    return torch.log1p(input)


def expm1(input, *, out=None):
    return torch.expm1(input)


def exp2(input, *, out=None):
    # 2 ** x through the engine's pow, not ATen's exp2 kernel (SLEEF's exp2f): may differ from
    # PyTorch in the last bit
    return torch.pow(2.0, input)


def xlogy(input, other, *, out=None):
    return torch.xlogy(input, other)


def xlog1py(input, other, *, out=None):
    # ATen's xlog1py kernel: NaN other -> NaN; input == 0 -> 0; else input * log1p(other)
    out = input * torch.log1p(other)
    out = out.masked_fill(input == 0, 0.0)
    if isinstance(other, torch.Tensor):
        out = out.masked_fill(other.isnan(), float('nan'))
    return out


def sinc(input, *, out=None):
    # ATen's sinc kernel: 1 at 0, else sin(pi * x) / (pi * x)
    product = input * math.pi
    return torch.where(input == 0, torch.ones_like(input), torch.sin(product) / product)


def entr(input, *, out=None):
    # -x * log(x) for x > 0, 0 at 0, -inf below
    pos = -input * torch.log(input)
    zero = torch.zeros_like(input)
    return torch.where(input > 0, pos, torch.where(input == 0, zero, zero - float('inf')))


def logsumexp(input, dim, keepdim=False, *, out=None):
    return torch.logsumexp(input, dim, keepdim)


def softmax(input, dim, *, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return _F.softmax(input, dim)


def log_softmax(input, dim, *, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return _F.log_softmax(input, dim)


def round(input, decimals=0, *, out=None):
    return torch.round(input)


def sigmoid(input):
    return torch.sigmoid(input)
