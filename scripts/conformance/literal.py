"""Python source text for the values a PyTorch test sample holds, so that a generated script
rebuilds them bit for bit without PyTorch's test helpers: tensors become `T([...], f32)` calls
(see prelude.py) whose float values parse back to exactly the recorded bits.

`literal(value)` returns the source text, or raises `Unrepresentable` for a value a standalone
script cannot spell (complex numbers, functions, generators, sparse or quantized tensors...):
the generator then leaves that sample out and counts it.
"""
import math
import struct

import torch

DTYPE_NAMES = {
    torch.float32: "f32",
    torch.float64: "f64",
    torch.int64: "i64",
    torch.bool: "b8",
    torch.float16: "torch.float16",
    torch.bfloat16: "torch.bfloat16",
    torch.int32: "torch.int32",
    torch.int16: "torch.int16",
    torch.int8: "torch.int8",
    torch.uint8: "torch.uint8",
}
# The tensor element types a sample's tensors may have (the ones a learner meets on the CPU).
LITERAL_TENSOR_DTYPES = {torch.float32, torch.float64, torch.int64, torch.bool, torch.int32,
                         torch.uint8, torch.int8, torch.int16}
MEMORY_FORMATS = {
    torch.contiguous_format: "torch.contiguous_format",
    torch.channels_last: "torch.channels_last",
    torch.preserve_format: "torch.preserve_format",
    torch.channels_last_3d: "torch.channels_last_3d",
}
# A tensor literal longer than this many elements makes the sample too large to keep.
MAX_TENSOR_ELEMENTS = 400


class Unrepresentable(Exception):
    pass


def _f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def float_text(x, single):
    """The shortest text that reads back (through a Python float, then the tensor's dtype) as
    exactly `x`. For float32 that is the shortest float32 repr when its double rounds to the same
    float32 bits (checked), else the double's repr, which always does."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if not single:
        return repr(x)
    want = _f32_bits(x)
    for digits in range(1, 10):
        text = "%.*g" % (digits, x)
        try:
            if _f32_bits(float(text)) == want:
                break
        except OverflowError:  # rounded past the largest float32
            continue
    else:
        text = repr(x)
    # A float literal even for whole values, so the text shows the intent.
    if "e" not in text and "." not in text and "n" not in text:
        text += ".0"
    return text


def _nested(values, single, is_bool, is_float):
    if isinstance(values, list):
        return "[" + ", ".join(_nested(v, single, is_bool, is_float) for v in values) + "]"
    if is_bool:
        return "True" if values else "False"
    if is_float:
        return float_text(float(values), single)
    return str(int(values))


def values_text(t):
    """The nested list of a tensor's values, as `T(...)` writes it."""
    return _nested(t.detach().tolist(), t.dtype == torch.float32, t.dtype == torch.bool,
                   t.dtype.is_floating_point)


def tensor_literal(t):
    if t.layout != torch.strided or t.is_quantized or t.is_complex():
        raise Unrepresentable("tensor of layout %s / dtype %s" % (t.layout, t.dtype))
    if t.dtype not in LITERAL_TENSOR_DTYPES:
        raise Unrepresentable("tensor dtype %s" % t.dtype)
    if t.numel() > MAX_TENSOR_ELEMENTS:
        raise Unrepresentable("tensor of %d elements" % t.numel())
    t = t.detach()
    dtype = DTYPE_NAMES[t.dtype]
    if t.numel() == 0:
        return "Z(%s, %s)" % (tuple(t.shape), dtype)
    return "T(%s, %s)" % (values_text(t), dtype)


def literal(v):
    if isinstance(v, torch.nn.Parameter):
        return "torch.nn.Parameter(%s)" % tensor_literal(v)
    if isinstance(v, torch.Tensor):
        return tensor_literal(v)
    if v is None or isinstance(v, (bool, str)):
        return repr(v)
    if isinstance(v, int):
        return repr(v)
    if isinstance(v, float):
        text = float_text(v, False)
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(text, text)
    if isinstance(v, torch.Size):
        return "torch.Size(%s)" % literal(list(v))
    if isinstance(v, tuple):
        items = [literal(x) for x in v]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(v, list):
        return "[" + ", ".join(literal(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(literal(k) + ": " + literal(x) for k, x in v.items()) + "}"
    if isinstance(v, slice):
        return "slice(%s, %s, %s)" % (literal(v.start), literal(v.stop), literal(v.step))
    if v is Ellipsis:
        return "..."
    if isinstance(v, torch.dtype):
        if v not in DTYPE_NAMES:
            raise Unrepresentable("dtype %s" % v)
        return str(v)
    if isinstance(v, torch.memory_format):
        return MEMORY_FORMATS[v]
    if isinstance(v, torch.device):
        if v.type != "cpu":
            raise Unrepresentable("device %s" % v)
        return repr(str(v))
    raise Unrepresentable("%s value" % type(v).__name__)
